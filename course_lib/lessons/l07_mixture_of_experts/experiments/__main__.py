"""python -m course_lib.lessons.l07_mixture_of_experts.experiments [dense|long]: retrain and store
the router grid (or the dense FFNs, or the long runs)."""

import sys

from course_lib.lessons.l07_mixture_of_experts.experiments import main

main(sys.argv[1:])
