/*
 * vcompare.h - pmon-validate --compare A.json B.json: what changed between
 * two runs' reports.
 */
#ifndef PMON_VALIDATE_VCOMPARE_H
#define PMON_VALIDATE_VCOMPARE_H

#include <stdio.h>

/* Print, for checks matched by kernel and event: those whose result
 * flipped (PASS, FAIL, KNOWN), those whose ratio moved by more than the
 * larger of the two runs' spreads (--repeat; 0 for a single window), and
 * the checks only one report has; then a summary line.  Returns 0 when
 * nothing changed, 1 when something did, 2 when a report cannot be read
 * (the reason on stderr). */
int vcompare(FILE *out, const char *a, const char *b);

#endif
