/*
 * generation.h - an uncore generation as data: the box types, metrics and
 * names the engine takes from it, and the CPUs it serves.
 *
 * One instance per generation (src/snbep/gen.c); the registry
 * (generation.c) lists them and picks the one a machine's CPU asks for: on
 * the hardware the CPU model /proc/cpuinfo names, on the emulated machine
 * the identity its shape gives (the sim backend's cpu_ident).  The
 * catalogue holds the PMUs of every registered generation, each knowing its
 * own (libpfm4's way: names stay unique by their prefix); a machine counts
 * with its generation's boxes only.  Nothing outside src/<generation>/
 * names a generation.
 */
#ifndef PMON_GENERATION_H
#define PMON_GENERATION_H

#include "tables.h"
#include "metric.h"
#include "names.h"

struct pmon_access;
struct pmon_topo;
struct pmon_busmap;

/* How a generation's uncore counters are enabled and frozen (the box
 * types' registers say which: has_box_ctl, msr_glb_ctl).
 *   PMON_CONTROL_BOX     each box has a control of its own (freeze, reset):
 *                        SNB-EP;
 *   PMON_CONTROL_GLOBAL  one global control enables every counter of the
 *                        socket's uncore PMU, one status register holds
 *                        their overflows (the box types' msr_glb_*):
 *                        Nehalem-EP, Westmere-EP. */
enum pmon_control_scope { PMON_CONTROL_BOX, PMON_CONTROL_GLOBAL };

/* A CPU of a generation's family that it does not serve, and why (a
 * different uncore): named in the refusal instead of "not a ...". */
struct pmon_cpu_refused {
	unsigned model;              /* 0 ends the list */
	const char *cpu;             /* "Nehalem-EX (Xeon 6500/7500, family 6 model 46)" */
};

struct pmon_generation {
	const char *name;            /* "snbep": short, for registries and shapes */
	const char *title;           /* "SNB-EP": in messages */
	const char *cpu;             /* "Sandy Bridge-EP (Xeon E5-2600, family 6 model 45)" */
	unsigned family;             /* 6 */
	const unsigned *models;      /* the CPU models it serves, 0-terminated */
	enum pmon_control_scope control;
	/* relatives it does not serve (NULL or ended by model 0), and why */
	const struct pmon_cpu_refused *refused;
	const char *refused_why;

	/* (the counts are the tables' own, defined beside them) */
	const struct pmon_box_type *const *boxes;
	const int *nboxes;
	const struct pmon_metric_def *metrics;
	const int *nmetrics;
	const struct pmon_metric_group *groups;
	const int *ngroups;
	const struct pmon_perf_pmu *perf_pmus;   /* ends with a NULL perf_name */
	const struct pmon_unit_row *units;       /* ends with a NULL box */
	const char *example;         /* an event name for messages */

	/* Hooks: what the engine needs done that the tables cannot say. */
	/* Map every socket's uncore PCI bus (NULL: no PCI boxes).  Reads only. */
	int (*socket_map)(struct pmon_access *acc, const struct pmon_topo *topo,
			  struct pmon_busmap *bm, char *why, size_t whylen);
};

/* The registered generations, in order; the first is the default (the
 * emulated machine's unless its shape says otherwise). */
int pmon_generation_count(void);
const struct pmon_generation *pmon_generation_at(int i);
/* The generation serving this CPU, or NULL. */
const struct pmon_generation *pmon_generation_for(const char *vendor, unsigned family,
						  unsigned model);
/* A CPU a registered generation names but refuses (pmon_cpu_refused):
 * "Nehalem-EX (...): <why>" into buf, 1; else 0. */
int pmon_generation_refused(const char *vendor, unsigned family, unsigned model, char *buf,
			    size_t len);
/* "X (...) or Y (...)": the CPUs the registered generations serve (messages). */
void pmon_generation_cpus(char *buf, size_t len);

#endif
