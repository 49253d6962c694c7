/* metric.h - the declarative form of a derived metric (tables in a
 * generation's folder: src/snbep/metrics.c; engine in metric.c, public view in pmon/metric.h). */
#ifndef PMON_METRIC_INTERNAL_H
#define PMON_METRIC_INTERNAL_H

#include "pmon/metric.h"

struct pmon_metric_ev {
	const char *label;        /* its name in the formula */
	const char *box;          /* box type: "cbo", "imc", "ubox"... */
	const char *event;        /* event and umasks/modifiers, no PMU, no socket= */
	int pass;                 /* events of different passes never count together */
	int nodes;                /* enum pmon_metric_nodes */
};

struct pmon_metric_def {
	const char *name, *group, *desc, *formula, *unit;
	int scope;                /* enum pmon_metric_scope */
	const char *box;          /* box type of a per-box value */
	const char *guide, *note;
	struct pmon_metric_ev ev[PMON_METRIC_MAX_EVENTS];
};

struct pmon_metric_group {
	const char *name, *desc;
};

#endif
