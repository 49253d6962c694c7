/*
 * report.h - what the validation suite writes: the table on stdout, a JSON
 * report (jansson) and an SVG chart of measured/expected per check.
 */
#ifndef PMON_VALIDATE_REPORT_H
#define PMON_VALIDATE_REPORT_H

#include <stdio.h>

#include "vrun.h"

void report_table(FILE *out, const struct vctx *c);
/* The box types of the per-box lines, those of the machine's generation
 * (*types, how many), and for one: the checks that count one of its events,
 * passed and known; why no check can validate it (NULL: none known: a run
 * that makes none says "not validated by this run"). */
int report_box_types(const struct vctx *c, const char *const **types);
void report_box_count(const struct vctx *c, const char *type, size_t *n, size_t *pass, size_t *known);
const char *report_box_unvalidated(const char *type);
/* The box type of an event name ("imc", "cbo", ..., "nhm_unc", "core"; "?"). */
void report_box_type(const char *name, char *buf, size_t len);
/* One line per box type: the checks that count one of its events, passed,
 * failed, known ("not validated" when none). */
void report_boxes(FILE *out, const struct vctx *c);
/* What the idle baseline and --repeat did (vbase.h, vrepeat.h). */
void report_baseline(FILE *out, const struct vctx *c);
/* One line per distinct reason an event was refused (its checks FAIL). */
void report_refused(FILE *out, const struct vctx *c);
/* 0 or -1 with why. */
int report_json(const char *path, const struct vctx *c, double seconds, char *why, size_t len);
int report_svg(const char *path, const struct vctx *c, char *why, size_t len);
/* The ratio the chart plots for a check: measured/expected, or for a
 * zero-expected check measured/bound (0 when the bound is 0 and nothing
 * was counted). */
double report_plot_ratio(const struct vcheck *k);

#endif
