/*
 * enabled.h - a box's controls found enabled now (reads only): for the
 * machine's list (pmon_machine_enabled_ctls) and a session's busy check.
 */
#ifndef PMON_ENABLED_H
#define PMON_ENABLED_H

#include "regs.h"

/* What a walk of boxes found: the first max enabled controls in ctl, n how
 * many in all; ctls and failed speak of the box walked last. */
struct pmon_enabled_walk {
	pmon_enabled_ctl_t *ctl;
	int max;
	int n;
	uint32_t ctls;            /* bit c: its CTLc is enabled */
	int failed;               /* the read that failed: CTLn, -1 the fixed control */
};

/* Read box r's general controls, and its fixed control when fixed is set
 * (reads only), and add each one whose enable bit is set to w.  A failed read
 * stops the walk: its error code, why the read's reason. */
int pmon_box_enabled(struct pmon_machine *m, const struct pmon_box_regs *r, int fixed,
		     struct pmon_enabled_walk *w, char *why, size_t whylen);

#endif
