# docs: man pages and shell completion.
#
# docs/man/NAME.SECTION.scd is scdoc source (Debian package scdoc); build/man/NAME.SECTION
# is the page, built by `make` (`man ./build/man/probecost-run.1` reads it from the tree)
# and installed in $(MANDIR)/manSECTION/.  completion/probecost.bash is installed as
# $(BASHCOMPDIR)/probecost, where bash-completion loads it on first use.

SCDOC     ?= scdoc
MAN_SRCS  := $(sort $(wildcard docs/man/*.scd))
MAN_PAGES := $(MAN_SRCS:docs/man/%.scd=build/man/%)

all: $(MAN_PAGES)
check-tests: $(MAN_PAGES)

# The page's date is its source's last commit (stable across builds), else today.
build/man/%: docs/man/%.scd
	@mkdir -p $(dir $@)
	@command -v $(SCDOC) >/dev/null || { echo "scdoc not found: install package scdoc" \
		"(scripts/setup.sh --deps)" >&2; exit 1; }
	@echo "  SCDOC $@"; SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct -- $< 2>/dev/null) ; \
		export SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(date +%s)}; $(SCDOC) < $< > $@.tmp && mv $@.tmp $@

man: $(MAN_PAGES)

INSTALL_FILES += $(foreach m,$(MAN_PAGES),$(m):$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)):0644) \
		 completion/probecost.bash:$(BASHCOMPDIR)/probecost:0644

.PHONY: man
