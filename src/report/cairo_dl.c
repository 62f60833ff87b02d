// SPDX-License-Identifier: MIT
/*
 * cairo_dl: cairo, loaded when a command first draws a plot (core/dynlib.h:
 * it and fontconfig added to every probecost start, every workload run's
 * included: bench/results/coverage.md).  plot_draw.c keeps calling cairo's
 * own names; they are
 * defined here and forward to the loaded library.  FcFini is fontconfig's,
 * which cairo depends on: dlsym on cairo's handle finds it there.
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "core/dynlib.h"
#include "report/plot_chart.h"

#define CAIRO_FUNCS(F, V)                                                                          \
	V(cairo_arc, (cairo_t * cr, double xc, double yc, double r, double a1, double a2),         \
	  (cr, xc, yc, r, a1, a2))                                                                 \
	V(cairo_clip, (cairo_t * cr), (cr))                                                        \
	V(cairo_close_path, (cairo_t * cr), (cr))                                                  \
	F(cairo_t *, cairo_create, (cairo_surface_t * target), (target), NULL)                     \
	V(cairo_debug_reset_static_data, (void), ())                                               \
	V(cairo_destroy, (cairo_t * cr), (cr))                                                     \
	V(cairo_fill, (cairo_t * cr), (cr))                                                        \
	F(cairo_surface_t *, cairo_image_surface_create,                                           \
	  (cairo_format_t format, int width, int height), (format, width, height), NULL)           \
	V(cairo_line_to, (cairo_t * cr, double x, double y), (cr, x, y))                           \
	V(cairo_move_to, (cairo_t * cr, double x, double y), (cr, x, y))                           \
	V(cairo_paint, (cairo_t * cr), (cr))                                                       \
	F(cairo_surface_t *, cairo_pdf_surface_create, (const char *path, double w, double h),     \
	  (path, w, h), NULL)                                                                      \
	V(cairo_rectangle, (cairo_t * cr, double x, double y, double w, double h),                 \
	  (cr, x, y, w, h))                                                                        \
	V(cairo_restore, (cairo_t * cr), (cr))                                                     \
	V(cairo_rotate, (cairo_t * cr, double angle), (cr, angle))                                 \
	V(cairo_save, (cairo_t * cr), (cr))                                                        \
	V(cairo_select_font_face,                                                                  \
	  (cairo_t * cr, const char *family, cairo_font_slant_t slant,                             \
	   cairo_font_weight_t weight),                                                            \
	  (cr, family, slant, weight))                                                             \
	V(cairo_set_font_size, (cairo_t * cr, double size), (cr, size))                            \
	V(cairo_set_line_width, (cairo_t * cr, double width), (cr, width))                         \
	V(cairo_set_source_rgb, (cairo_t * cr, double r, double g, double b), (cr, r, g, b))       \
	V(cairo_set_source_rgba, (cairo_t * cr, double r, double g, double b, double a),           \
	  (cr, r, g, b, a))                                                                        \
	V(cairo_show_text, (cairo_t * cr, const char *utf8), (cr, utf8))                           \
	F(const char *, cairo_status_to_string, (cairo_status_t status), (status),                 \
	  "cairo is not loaded")                                                                   \
	V(cairo_stroke, (cairo_t * cr), (cr))                                                      \
	V(cairo_surface_destroy, (cairo_surface_t * s), (s))                                       \
	V(cairo_surface_finish, (cairo_surface_t * s), (s))                                        \
	V(cairo_surface_flush, (cairo_surface_t * s), (s))                                         \
	F(cairo_status_t, cairo_surface_status, (cairo_surface_t * s), (s),                        \
	  CAIRO_STATUS_NULL_POINTER)                                                               \
	F(cairo_status_t, cairo_surface_write_to_png, (cairo_surface_t * s, const char *path),     \
	  (s, path), CAIRO_STATUS_NULL_POINTER)                                                    \
	F(cairo_surface_t *, cairo_svg_surface_create_for_stream,                                  \
	  (cairo_write_func_t write, void *closure, double w, double h), (write, closure, w, h),   \
	  NULL)                                                                                    \
	V(cairo_text_extents, (cairo_t * cr, const char *utf8, cairo_text_extents_t *ext),         \
	  (cr, utf8, ext))                                                                         \
	V(cairo_translate, (cairo_t * cr, double tx, double ty), (cr, tx, ty))                     \
	V(FcFini, (void), ())

PCOST_DL_LIBRARY(cairo, "libcairo.so.2", "libcairo2", CAIRO_FUNCS)

const char *pcost_cairo_load(void)
{
	return dl_loaded() ? NULL : cairo.err;
}
