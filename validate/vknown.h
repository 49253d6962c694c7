/*
 * vknown.h - understood deviations (--known FILE): a FAIL whose kernel,
 * event and measured ratio match a line of the file is reported as
 * KNOWN (reason) instead, in the table and the JSON, and does not fail the
 * run.  --record-known FILE writes such a file from a run's failures for a
 * person to edit.
 *
 * The file: one deviation a line, fields separated by TABs; blank lines and
 * lines starting with # are ignored:
 *
 *   KERNEL <TAB> EVENT <TAB> LOW <TAB> HIGH <TAB> REASON
 *
 * KERNEL and EVENT are the check's names as the table prints them, with
 * shell wildcards (fnmatch: * ? [..]); LOW..HIGH bound the measured ratio
 * (measured/expected, or measured/bound for a check that expects 0);
 * REASON says why (the model that bridges the expectation and the count,
 * or the erratum), and may not be "?", the placeholder --record-known
 * writes.  A refused event (not counted) is never KNOWN.
 */
#ifndef PMON_VALIDATE_VKNOWN_H
#define PMON_VALIDATE_VKNOWN_H

#include <stddef.h>

#include "vcheck.h"

struct vknown_entry {
	char kernel[64], event[128];
	double lo, hi;
	char reason[256];
};

struct vknown {
	struct vknown_entry *v;
	size_t n;
};

/* Read path.  0, or -1 with why naming the file, the line and the
 * problem. */
int vknown_load(const char *path, struct vknown *k, char *why, size_t len);
void vknown_free(struct vknown *k);
/* Mark the FAIL checks a deviation matches (c->known = its reason);
 * returns how many. */
size_t vknown_apply(const struct vknown *k, struct vchecks *cs);
/* The ratio a deviation bounds: measured/expected, or measured/bound for a
 * check that expects 0 (NAN when refused or not finite). */
double vknown_ratio(const struct vcheck *c);
/* Write a file of the FAIL checks (ratio +-1 %, reason "?") to path, which
 * must not exist (created 0600, never through a symbolic link).  0, or -1
 * with why. */
int vknown_record(const char *path, const struct vchecks *cs, char *why, size_t len);
/* Before the run: 0 when path does not exist yet (vknown_record may create
 * it), else -1 with why (it exists, or cannot be looked at), so a run that
 * could not write its record is refused before anything runs. */
int vknown_record_ready(const char *path, char *why, size_t len);

#endif
