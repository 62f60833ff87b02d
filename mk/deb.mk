# deb: the Debian package, build/deb/probecost_VERSION_amd64.deb (debian/), checked by lintian.
#
# dpkg-buildpackage runs in build/deb/src, a copy of the built tree (mtimes kept), so it
# rebuilds only what PREFIX=/usr changes (the objects that bake LIBDIR_PC, probecost.pc)
# and neither relinks ./probecost nor writes outside build/deb.  Needs debhelper and
# lintian (packages.txt); the package's Depends are computed, its tracers and the
# libraries probecost loads at run time recommended or suggested (debian/rules).

DEB       := build/deb/probecost_$(VERSION)_amd64.deb
DEB_STAGE := build/deb/src
# What the copy leaves out: other build flavours, lint stamps, the previous package.
DEB_SKIP  := .git build/deb build/san build/tests build/fuzz build/lint build/tidy

deb: all
	@v=$$(dpkg-parsechangelog -S Version 2>/dev/null); [ "$$v" = "$(VERSION)" ] || \
		{ echo "deb: debian/changelog says '$$v', VERSION says '$(VERSION)':" \
		  "add a changelog entry (dch -v $(VERSION))" >&2; exit 1; }
	@for t in dpkg-buildpackage dh lintian; do command -v $$t >/dev/null || \
		{ echo "deb: $$t not found: install packages debhelper and lintian" \
		  "(scripts/setup.sh --deps)" >&2; exit 1; }; done
	@rm -rf $(DEB_STAGE) && mkdir -p $(DEB_STAGE) && rm -f build/deb/probecost_*
	@tar $(DEB_SKIP:%=--exclude=./%) -cf - . | tar -xf - -C $(DEB_STAGE)
	@echo "  DEB $(DEB) (log: build/deb/build.log)"
	@cd $(DEB_STAGE) && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		dpkg-buildpackage -b -us -uc -nc -J$(shell nproc) >../build.log 2>&1 || \
		{ tail -30 ../build.log >&2; exit 1; }
	@echo "  LINTIAN $(DEB)"; lintian --fail-on error $(DEB)

# The fleet playbook (deploy/ansible/, docs/fleet.md) in make lint: YAML style, strict.
lint: yamllint
yamllint:
	@yamllint -c deploy/ansible/.yamllint -s deploy/ansible && \
	 echo "yamllint: ok ($$(find deploy/ansible -name '*.yml' | wc -l) files)"

.PHONY: deb yamllint
