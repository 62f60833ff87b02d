# report: what the renderers link beyond the Makefile's PKGS.
# plot_draw.c releases fontconfig's caches after each plot (FcFini), so it links it directly.
LDLIBS += $(shell $(PKG_CONFIG) --libs fontconfig 2>/dev/null || echo -lfontconfig)
