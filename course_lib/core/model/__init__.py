"""The formulas: the FFN, attention, the sublayer connection, half-planes and the networks built
from them. Imports torch, numpy and course_lib's base modules only."""
