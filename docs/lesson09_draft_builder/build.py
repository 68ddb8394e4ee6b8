import sys, nbformat
CELLS = []
def md(s): CELLS.append(("markdown", s.strip("\n"), False))
def code(s, hidden=False): CELLS.append(("code", s.strip("\n"), hidden))
for part in sys.argv[1:]:
    exec(open(part).read().replace("CELLS = []\n", ""), {"md": md, "code": code, "CELLS": CELLS})
nb = nbformat.v4.new_notebook()
nb.metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
               "language_info": {"name": "python"}}
cells = []
for kind, s, hidden in CELLS:
    c = nbformat.v4.new_markdown_cell(s) if kind == "markdown" else nbformat.v4.new_code_cell(s)
    if hidden:
        c.metadata["jupyter"] = {"outputs_hidden": True, "source_hidden": True}
    cells.append(c)
nb.cells = cells
nbformat.write(nb, "/work/main/notebooks/09_two_languages.ipynb")
print(len(nb.cells), "cells")
