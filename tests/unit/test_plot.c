// SPDX-License-Identifier: MIT
/* test_plot: every plot renders to a PNG of the right size that is not blank; SVG and PDF too. */
#include <cairo.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/compare.h"
#include "report/plot.h"
#include "synth_rich.h"

static char tmpdir[64];

/* Pictures go to a private directory removed at the end, or to $PCOST_PLOT_DIR (kept, to look at). */
static const char *out(const char *name, char *buf, size_t len)
{
	const char *d = getenv("PCOST_PLOT_DIR");

	snprintf(buf, len, "%s/pcost-test-%s", d ? d : tmpdir, name);
	return buf;
}

static int setup(void **st)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pcost-plot-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

/* Size, and enough ink in enough colours to be a chart, not a blank page. */
static void assert_png_chart(const char *path, int min_colours)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(path);
	int w, h, stride, ink = 0, ncol = 0;
	uint32_t cols[64];
	unsigned char *px;

	assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	w = cairo_image_surface_get_width(img);
	h = cairo_image_surface_get_height(img);
	assert_int_equal(w, 960);
	assert_int_equal(h, 560);
	px = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t p = *(uint32_t *)(px + y * stride + 4 * x) & 0xffffff;
			int i;

			if (p == 0xffffff)
				continue;
			ink++;
			for (i = 0; i < ncol && cols[i] != p; i++)
				;
			/* Count saturated colours only (bars and lines, not antialiased grey). */
			if (i == ncol && ncol < 64 &&
			    abs((int)(p >> 16 & 255) - (int)(p & 255)) > 60)
				cols[ncol++] = p;
		}
	cairo_surface_destroy(img);
	/* At least 2% of the picture is drawn on... */
	assert_true(ink > w * h / 50);
	/* ...and less than 60% (not a filled page). */
	assert_true(ink < w * h * 6 / 10);
	assert_true(ncol >= min_colours);
}

static void test_run_plot_log_axis(void **st)
{
	struct pcost_session s;
	char path[256], err[256];

	synth_rich_run(&s, 1, "6.18.0");
	s.id = 1;
	assert_int_equal(pcost_plot_session(&s, out("run.png", path, sizeof(path)), err, sizeof(err)), 0);
	assert_png_chart(path, 4);
	assert_int_equal(pcost_plot_session(&s, out("run.svg", path, sizeof(path)), err, sizeof(err)), 0);
	{
		struct stat sb;
		FILE *f;
		char head[6] = { 0 };

		assert_int_equal(stat(path, &sb), 0);
		assert_true(sb.st_size > 5000);
		f = fopen(path, "r");
		assert_int_equal(fread(head, 1, 5, f), 5);
		fclose(f);
		assert_string_equal(head, "<?xml");
	}
	assert_int_equal(pcost_plot_session(&s, out("run.pdf", path, sizeof(path)), err, sizeof(err)), 0);
	assert_int_equal(pcost_plot_session(&s, out("x.gif", path, sizeof(path)), err, sizeof(err)), -EINVAL);
	pcost_session_release(&s);
}

static void test_probes_plot(void **st)
{
	struct pcost_session s;
	char path[256], err[256];

	synth_rich_probes(&s);
	assert_int_equal(pcost_plot_session(&s, out("probes.png", path, sizeof(path)), err, sizeof(err)), 0);
	assert_png_chart(path, 2);
	pcost_session_release(&s);
}

static void test_counters_plot(void **st)
{
	struct pcost_session s;
	char path[256], err[256];

	synth_rich_counters(&s, 1);
	assert_int_equal(pcost_plot_session(&s, out("counters.png", path, sizeof(path)), err, sizeof(err)), 0);
	assert_png_chart(path, 3);
	pcost_session_release(&s);
}

static void test_compare_plot(void **st)
{
	struct pcost_session a, b;
	struct pcost_compare c;
	char path[256], err[256];

	synth_rich_run(&a, 1, "6.1.0");
	synth_rich_run(&b, 1.5, "6.18.0");
	a.id = 1;
	b.id = 2;
	assert_int_equal(pcost_compare_sessions(&a, &b, 5, &c), 0);
	assert_int_equal(pcost_plot_compare(&a, &b, &c, out("compare.png", path, sizeof(path)), err,
					    sizeof(err)), 0);
	assert_png_chart(path, 2);
	pcost_compare_release(&c);
	pcost_session_release(&a);
	pcost_session_release(&b);
}

static void test_nothing_to_plot(void **st)
{
	struct pcost_session s;
	char path[256], err[256];

	pcost_session_init(&s, PCOST_SESSION_RUN);
	pcost_session_add_config(&s, "null", "", "none", NULL, "run");
	assert_int_equal(pcost_plot_session(&s, out("empty.png", path, sizeof(path)), err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "no monitored configuration"));
	pcost_session_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_plot_log_axis), cmocka_unit_test(test_probes_plot),
		cmocka_unit_test(test_counters_plot),	  cmocka_unit_test(test_compare_plot),
		cmocka_unit_test(test_nothing_to_plot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
