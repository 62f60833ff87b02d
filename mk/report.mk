# report: cairo is loaded on first use (src/report/cairo_dl.c), not linked; test_plot
# reads the PNGs it draws back with cairo's own PNG reader, so it links cairo itself.
build/tests/test_plot build/san/tests/test_plot: LDLIBS += $(shell $(PKG_CONFIG) --libs cairo 2>/dev/null || echo -lcairo)
