# Collision Inspector: the two commands are `make demo` and `make test` (see README.md); `make check` is the fast
# tier a developer runs after every edit.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
NP2 := .venv-np2
DEBIAN_PACKAGES := blender xvfb xauth python3-numpy

.PHONY: venv venv-np2 system-deps build demo check test test-core-np2 bench clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements.txt
	touch $@

venv: $(VENV)/.installed

$(NP2)/.installed: requirements-np2.txt
	$(PYTHON) -m venv $(NP2)
	$(NP2)/bin/python -m pip install -q -r requirements-np2.txt
	touch $@

venv-np2: $(NP2)/.installed

# Debian packages for the real-window tier (Blender 3.4 under Xvfb). Installs only what is missing.
system-deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# The installable extension zip, built and validated with Blender's own extension tool.
build: venv
	$(VPY) scripts/build_extension.py

# Prints the two readouts and where the files went; the zip is rebuilt (quietly) only when out of date.
demo: venv system-deps
	@$(VPY) scripts/demo.py

# The fast tier: every test that carries none of pytest.ini's tier markers (the whole corpora, Blender, the real
# window, single slow tests): core units and properties, the results layer, tooling.
CHECK_MARKERS := not (corpora or slow or blender or gui)

check: venv
	$(VPY) -m pytest -q -p no:cacheprovider -n auto -m "$(CHECK_MARKERS)" --durations=10 tests/core tests/results tests/tooling

# Core tests again on numpy 2.x (core must run on both), then the whole suite on Blender's numpy 1.26; the
# slowest tests are listed at the end of each run.
test-core-np2: venv-np2
	$(NP2)/bin/python -m pytest -q -p no:cacheprovider --durations=10 tests/core

test: venv system-deps build test-core-np2
	$(VPY) -m pytest --durations=25

# Every benchmark suite, each against its peers in the same run (bench/run.py lists them; tables in
# bench/README.md). The bpy suites need the zip; bench/run.py runs numpy's BLAS on one thread, as the peers run.
bench: venv build
	@$(VPY) bench/run.py

clean:
	rm -rf dist out .pytest_cache
