# Two commands a learner needs: `make lab` and `make test`. Each creates .venv on first use.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LAB_STAMP := $(VENV)/.installed-lab
LINTED := course_lib devtools tests notebooks benchmarks deploy conftest.py

.PHONY: lab test suite lint unit nbval portability portability-blas browser notebooks editions site bench spread classroom setup chromium clean

# Python writes its bytecode caches (the gitignored __pycache__ folders) even where the shell says
# not to: `make test` starts some thirty Python processes (workers, kernels, servers), and each
# compiled the course's and the tests' modules anew, 0.6 s each for the course alone.
unexport PYTHONDONTWRITEBYTECODE

setup: $(STAMP)

# PyTorch's CPU build goes in first, from PyTorch's CPU index where it answers (PyPI's torch for
# Linux is the CUDA build, GBs of NVIDIA libraries), else from pip's configured index at once;
# install_torch.py says which build it installed. pip's progress is shown: a first run downloads.
# Two installs from one recipe: a learner's (`make lab`: the course and JupyterLab, nothing else)
# and a contributor's (`make test` and the rest: the development tools too, and the hub's proxy).
$(LAB_STAMP): EXTRAS :=
$(STAMP): EXTRAS := [dev]
$(LAB_STAMP) $(STAMP): pyproject.toml course_lib/core/tools/install_torch.py
	@test -x $(PY) || { echo "Creating $(VENV) with $$(python3 --version)"; python3 -m venv $(VENV); }
	@# A recent pip first: Python 3.11's own (23.2) took 79 s to choose the course's 150 packages
	@# from PyPI's project pages here, pip 24.3 and later 40 s. Nothing is asked once pip is
	@# recent enough; where no index answers within 5 s, or has none (an offline mirror), the
	@# install goes on with the pip it has.
	$(PY) -m pip install --disable-pip-version-check --retries 0 --timeout 5 'pip>=24.3' \
		|| echo "pip not upgraded: installing with pip $$($(PY) -m pip --version | cut -d' ' -f2)"
	$(PY) course_lib/core/tools/install_torch.py
	@# --no-compile: Python compiles a module the first time it is imported and keeps the bytecode,
	@# so only what runs is compiled (about 2,500 of the venv's 10,000 modules, 8 s once), not
	@# every module of torch's test, compiler and distributed packages (27 s on 2 cores).
	$(PY) -m pip install --disable-pip-version-check --no-compile -e '.$(EXTRAS)'
	@# jsonschema compiles 39 grammars at import when rfc3987-syntax is there (jupyter-events asks
	@# for it, for one optional format check, "iri"): 2 s of every process that reads a notebook or
	@# serves JupyterLab, a learner's server included. Nothing here validates an IRI; without the
	@# package jsonschema leaves that one check out (tests/test_install.py holds it to that).
	$(PY) -m pip uninstall --disable-pip-version-check -y rfc3987-syntax lark
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp course_lib/core/tools/lab_overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	@# JupyterHub's proxy for `make classroom` and its test (deploy/classroom/tests/test_classroom_hub.py skips
	@# without it), a contributor's only; npm's packages go inside the venv, so `make clean` removes
	@# them too.
	@if [ "$@" != "$(STAMP)" ]; then :; elif command -v npm >/dev/null; then \
		npm install --prefix $(VENV)/chp --no-audit --no-fund --loglevel=error configurable-http-proxy >/dev/null 2>&1 \
		|| echo "configurable-http-proxy not installed (npm failed: offline?); the hub test will skip"; \
	else echo "npm not found: configurable-http-proxy not installed; the hub test will skip"; fi
	@# axe-core, pinned, for the site's accessibility check (tests/browser/sitepage.py, AXE_VERSION).
	@if [ "$@" != "$(STAMP)" ]; then :; elif command -v npm >/dev/null; then \
		npm install --prefix $(VENV)/axe --no-audit --no-fund --loglevel=error axe-core@4.14.1 >/dev/null 2>&1 \
		|| echo "axe-core not installed (npm failed: offline?); the site's accessibility check will skip"; \
	else echo "npm not found: axe-core not installed; the site's accessibility check will skip"; fi
	touch $@

# The English index, or the Chinese one with `make lab LANG=zh` (or a zh_* locale, or EDITION=zh).
EDITION ?= $(if $(filter zh%,$(LANG)),zh,en)
lab: $(if $(wildcard $(STAMP)),$(STAMP),$(LAB_STAMP))  # a contributor's install serves too
	LANG=C.UTF-8 $(PY) -m course_lib.core.tools.lab $(EDITION)

NBVAL := --nbval --nbval-sanitize-with notebooks/sanitize.cfg --nbval-cell-timeout 300

include tests/other_cpu.mk  # OTHER_CPU: another CPU's kernels, simulated on this one

# The whole suite: lint, then unit tests, nbval and the browser suite on both cores. Every notebook
# runs natively (nbval: the Chinese edition) and as another CPU computes (the English edition, in
# JupyterLab: the browser suite's kernels run under OTHER_CPU, and its Run All is compared with the
# committed outputs). Without Chromium the browser suite skips, so nbval runs the English edition
# natively and the portability pass runs it as another CPU. It prints how long it took, install
# included; `make bench` times it from a fresh clone against its budget (benchmarks/goals.py).
TEST_START := $(shell date +%s)
ifdef LESSON
# A contributor's quick loop, `make test LESSON=05`: lint, then the full suite without what
# belongs to other lessons (their tests, their cases of the tests that read every lesson, their
# notebooks) and without the browser, its two notebooks under nbval, on both cores
# (devtools/lesson_tests.py finds them; conftest.py's --lesson deselects the rest), so it fails
# where the full suite would for that lesson. The whole of `make test` still runs before a change
# is shared.
test: $(STAMP)
	$(MAKE) --no-print-directory lint
	$(PY) -m pytest tests deploy $$($(PY) -m devtools.lesson_tests $(LESSON) | grep ipynb) \
		--ignore tests/browser --lesson $(LESSON) $(NBVAL) -q -n 2 --dist loadscope
	@echo "make test LESSON=$(LESSON): its checks passed in $$(( $$(date +%s) - $(TEST_START) )) s"
else
test: $(STAMP) chromium
	$(MAKE) --no-print-directory lint suite
	@test -x /usr/bin/chromium || $(MAKE) --no-print-directory portability
	@echo "make test: every check passed in $$(( $$(date +%s) - $(TEST_START) )) s (install included)"
endif

# Unit tests, nbval and the browser suite, spread over two workers: a notebook's cells, a lesson's
# browser tests and the site's tests each stay on one worker (work units: conftest.py).
suite: $(STAMP) chromium
	$(PY) -m pytest tests notebooks deploy $(NBVAL) -q -n 2 --dist loadscope

# nbval over the English notebooks under OTHER_CPU, one notebook per core (pytest-xdist): the check
# the browser suite's Run All makes within `make suite`, without a browser. The Chinese edition's
# code cells are the English ones character for character (tests/test_editions.py) and its
# catalogue formats every number as the English text does (tests/test_i18n.py), so a digit that
# another CPU changes changes in the English edition too; `make suite` runs the Chinese edition
# natively. PORTABILITY=notebooks runs both editions.
PORTABILITY ?= notebooks/*.ipynb
portability: $(STAMP)
	$(OTHER_CPU) $(PY) -m pytest $(PORTABILITY) $(NBVAL) -q -n 2 --dist loadfile

# The same against OpenBLAS's most generic kernels: a contributor's check after changing NumPy code.
# Not part of `make test`: CI keeps the machine's own OpenBLAS setting.
portability-blas: $(STAMP)
	$(OTHER_CPU) OPENBLAS_CORETYPE=Prescott $(PY) -m pytest $(PORTABILITY) $(NBVAL) -q -n 2 --dist loadfile

unit: $(STAMP)
	$(PY) -m pytest tests deploy -q --ignore tests/browser

nbval: $(STAMP)
	$(PY) -m pytest notebooks $(NBVAL) -q

browser: $(STAMP) chromium
	$(PY) -m pytest tests/browser -q

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED)
	$(VENV)/bin/lint-imports

# Re-execute every notebook of both editions in place after a change, so the stored outputs match
# (nbval compares them). NB=path re-executes one.
notebooks: $(STAMP)
	$(PY) -m devtools.notebooks $(if $(NB),$(NB),notebooks/*.ipynb notebooks/zh/*.ipynb)

# After changing a lesson's code in English: copy every code cell into the Chinese edition, list
# what still differs, then re-execute both editions (`make notebooks`).
editions: $(STAMP)
	$(PY) -m devtools.editions sync

# The static website of both editions into site/ (open site/index.html, or serve the folder):
# stored outputs, navigation, glossaries, and every demo as pre-rendered frames that need no kernel.
site: $(STAMP)
	$(PY) -m devtools.site site

# pytest-benchmark over benchmarks/test_*.py (never part of `make test`), then benchmarks/RESULTS.md
# against the previous run. BENCH_ARGS: e.g. "--quick --only width" (see benchmarks/README.md).
bench: $(STAMP)
	$(PY) benchmarks/run.py $(BENCH_ARGS)

# How far each fragile number moves between machines: every stored-vs-fresh comparison and every
# lesson, natively and under each difference another CPU makes (devtools/spread): writes
# tests/spread.json, which the tests take their tolerances from, and docs/spread.md. About 25
# minutes; SPREAD_ARGS: e.g. "--notebooks notebooks/05_ffn_memory.ipynb --quantities".
spread: $(STAMP)
	$(PY) -m devtools.spread $(SPREAD_ARGS)

# A real JupyterHub on this machine and simulated learners, 1, 2, 4, 8, … of them running the
# heaviest lesson together until a limit is crossed (never part of `make test`); the heaviest is
# measured first, every lesson's Run All once on this machine, unless --lesson names one: writes
# deploy/classroom/classroom-observed.json and CLASSROOM.md. CLASSROOM_ARGS: e.g.
# "--pattern staggered --stagger-s 60", "--max-learners 32", "--lesson 01_feed_forward.ipynb".
classroom: $(STAMP)
	$(PY) -m deploy.classroom.classroom_ramp $(CLASSROOM_ARGS)

# Debian's Chromium for the browser suite, and a CJK font so the lessons' Chinese terms render as
# characters, not boxes, when we can install them (root with apt-get); otherwise the browser tests
# skip with a line saying how to install Chromium.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
chromium:
	@if { [ ! -x /usr/bin/chromium ] || [ ! -e $(CJK_FONT) ]; } && [ "$$(id -u)" = 0 ] \
		&& command -v apt-get >/dev/null; then \
		echo "Installing Chromium and a CJK font for the browser suite (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

clean:
	rm -rf $(VENV) .jupyter-local artifacts site
