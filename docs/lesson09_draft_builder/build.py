import sys, nbformat
CELLS = []
def md(s): CELLS.append(("markdown", s.strip("\n")))
def code(s): CELLS.append(("code", s.strip("\n")))
for part in sys.argv[1:]:
    exec(open(part).read().replace("CELLS = []\n", ""), {"md": md, "code": code, "CELLS": CELLS})
nb = nbformat.v4.new_notebook()
nb.metadata = {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
               "language_info": {"name": "python"}}
nb.cells = [nbformat.v4.new_markdown_cell(s) if k == "markdown" else nbformat.v4.new_code_cell(s) for k, s in CELLS]
for c in []:
    c.pop("id", None)
nbformat.write(nb, "/work/main/notebooks/09_two_languages.ipynb")
print(len(nb.cells), "cells")
