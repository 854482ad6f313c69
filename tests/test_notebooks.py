"""The notebooks take every parameter from one cell at the top (notebooks/make_notebooks.py's
parameters()): in each, the first code cell is tagged "parameters" (papermill's convention) and
holds only assignments of literals; no later cell assigns those names again, and every one of them
is used. Then a notebook run with other values in that cell answers at those values: theorem1_gap
at one e^ε and d up to 4 has 5 rows, all at e^ε = 3.

Usage: /usr/bin/python3 tests/test_notebooks.py NOTEBOOK_DIR (CORBIN_PYTHONPATH: the module)."""
import ast
import os
import sys

import nbformat


def check_parameters(path):
    """Problems with the notebook's parameters cell, as sentences (none: it is one cell at the top)."""
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    if not code or "parameters" not in code[0].metadata.get("tags", []):
        return ["its first code cell is not tagged parameters"]
    problems, names = [], []
    for statement in ast.parse(code[0].source).body:
        if not isinstance(statement, ast.Assign):
            problems.append(f"the parameters cell has a {type(statement).__name__}, not only assignments")
            continue
        try:
            ast.literal_eval(statement.value)
        except ValueError:
            problems.append(f"parameter {ast.unparse(statement.targets[0])} is not a literal")
        for target in statement.targets:
            names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    later = []
    for cell in code[1:]:
        # IPython's magics (%matplotlib) are no Python: left out of the parse.
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith("%"))
        later.append(ast.parse(source))
    for name in names:
        used = any(isinstance(n, ast.Name) and n.id == name for tree in later for n in ast.walk(tree))
        if not used:
            problems.append(f"parameter {name} is never used")
        for tree in later:
            for n in ast.walk(tree):
                # A later cell may convert a parameter in place (r = F(r)) but not set another value.
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
                    reads = {m.id for m in ast.walk(n.value) if isinstance(m, ast.Name)}
                    if name not in reads:
                        problems.append(f"parameter {name} is set again after the parameters cell")
    return problems


def run_with(path, source):
    """The notebook executed with `source` as its parameters cell; returns the executed notebook."""
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    code[0].source = source
    nb.cells.append(nbformat.v4.new_code_cell("print('rows', len(rows), sorted({row['exp_eps'] for row in rows}))"))
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": os.path.dirname(path)}}).execute()
    return nb


def main(directory):
    failures = 0
    notebooks = sorted(name for name in os.listdir(directory) if name.endswith(".ipynb"))
    for name in notebooks:
        for problem in check_parameters(os.path.join(directory, name)):
            print(f"{name}: {problem}")
            failures += 1
    nb = run_with(os.path.join(directory, "theorem1_gap.ipynb"),
                  'exp_eps_values = ["3"]\nmax_bits = 4\ncenter, radius = "0", "1"')
    printed = "".join(out.get("text", "") for out in nb.cells[-1].outputs)
    if printed.strip() != "rows 5 [3.0]":
        print(f"theorem1_gap at e^ε = 3, d <= 4 printed {printed.strip()!r}, not 'rows 5 [3.0]'")
        failures += 1
    print(f"{len(notebooks)} notebooks: " + ("every parameter in one cell at the top" if not failures
                                             else f"{failures} problems"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "notebooks")))
