/*
 * vtest.h - what the validation suite's tests that run pmon-validate share:
 * reading the report.json of a run.
 */
#ifndef PMON_VTEST_H
#define PMON_VTEST_H

#include <stdio.h>

#include <jansson.h>

#include "check.h"

/* outdir/sub/report.json, parsed; NULL (and a failed check) if it is not
 * there or not JSON. */
static inline json_t *vtest_load(const char *outdir, const char *sub)
{
	char path[4096];
	json_error_t e;
	snprintf(path, sizeof(path), "%s/%s/report.json", outdir, sub);
	json_t *j = json_load_file(path, 0, &e);
	CHECK(j != NULL, "%s: %s", path, j ? "" : e.text);
	return j;
}

#endif
