/* encode.h - the encoder's internal entry point (pmon_encode parses the PMU
 * part of the name and then calls this). attrs are modified in place. */
#ifndef PMON_ENCODE_H
#define PMON_ENCODE_H

#include <stddef.h>
#include "pmon/pmon.h"

int pmon_encode_pmu(int pmu, const char *evname, char **attrs, int nattrs,
		    int nsockets, int ncpus, pmon_encoding_t *out, char *err, size_t errlen);

#endif
