/*
 * catalog.h - the PMUs libpmon offers: every instance of every box type of
 * every registered generation (generation.h: snbep_unc_cbo0..7,
 * snbep_unc_imc0..3, ...) and the core PMUs for offcore-response events.
 * Built once from the declarative tables; a machine counts with the PMUs of
 * its own generation (machine.c).
 */
#ifndef PMON_CATALOG_H
#define PMON_CATALOG_H

#include "tables.h"

struct pmon_generation;

struct pmon_pmu {
	const struct pmon_box_type *type;
	const struct pmon_generation *gen;  /* its uncore generation; NULL: a core PMU */
	int instance;
	int nevents;
	char name[32];
};

/* The PMU list (built on first call; thread-safe). */
const struct pmon_pmu *pmon_catalog(int *npmus);
const struct pmon_pmu *pmon_catalog_pmu(int pmu);   /* NULL if out of range */
int pmon_catalog_find(const char *name);            /* index, or PMON_ENOEVNT */
/* Event index by name (case-insensitive), or PMON_ENOEVNT. */
int pmon_catalog_event(const struct pmon_pmu *p, const char *name);
/* The same in box type t: its name, or an alias (tables.h: pmon_alias). */
int pmon_box_event(const struct pmon_box_type *t, const char *name);
/* Umask index of event ev of t by name or alias, or -1. */
int pmon_box_umask(const struct pmon_box_type *t, const struct pmon_event *ev, const char *name);
/* The modifier names a box accepts for an event (catalogue listing). */
int pmon_catalog_mod_ok(const struct pmon_box_type *t, const struct pmon_event *ev, int mod);

/* The core PMU box types (offcore/), appended after the uncore boxes. */
extern const struct pmon_box_type *const pmon_core_boxes[];
extern const int pmon_core_nboxes;

#endif
