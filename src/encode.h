/* encode.h - the encoder's internal entry point (pmon_encode parses the PMU
 * part of the name and then calls this). attrs are modified in place. */
#ifndef PMON_ENCODE_H
#define PMON_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include "pmon/pmon.h"

int pmon_encode_pmu(int pmu, const char *evname, char **attrs, int nattrs,
		    int nsockets, int ncpus, pmon_encoding_t *out, char *err, size_t errlen);

struct pmon_box_type;
/* The same rules for "EVENT[:UMASK]...[:MOD=VALUE]..." of a box type that
 * need not be in the live catalogue (a generation's tables checked before
 * they are wired in: ctests/test_nhm_tables.c).  pmu_name is used for the
 * canonical name and messages; out->pmu is -1. */
int pmon_encode_table(const struct pmon_box_type *t, const char *pmu_name, const char *evstr,
		      pmon_encoding_t *out, char *err, size_t errlen);

#endif
