/*
 * pmon_cmp.c - what the pmon component's files share (pmon_cmp.h): the
 * machine opened at init, libpmon's error codes as PAPI's, and libpmon's
 * reasons on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"

#include "pmon/pmon.h"
#include "pmon_cmp.h"

pmon_machine_t *pmon_cmp_machine;

int pmon_cmp_to_papi(int rc)
{
	switch (rc) {
	case PMON_OK: return PAPI_OK;
	case PMON_ENOEVNT: return PAPI_ENOEVNT;
	case PMON_EUMASK: case PMON_EQUAL: case PMON_ERANGE: return PAPI_EATTR;
	/* another process or agent holds the box: a conflict, whose message
	 * (printed by the caller) names the holder */
	case PMON_ECONFLICT: case PMON_EBUSY: return PAPI_ECNFLCT;
	case PMON_EPERM: return PAPI_EPERM;
	case PMON_ENOMEM: return PAPI_ENOMEM;
	case PMON_ENOTMODELED: case PMON_ENOSUPP: case PMON_ENODEV: return PAPI_ENOSUPP;
	case PMON_EIO: return PAPI_ESYS;
	case PMON_ESTALE: return PAPI_EMISC;   /* no total: a wrap may have been missed */
	default: return PAPI_EINVAL;
	}
}

void pmon_cmp_complain(const char *msg)
{
	const char *q = getenv("PMON_QUIET");
	if (!q || !*q || !strcmp(q, "0"))
		fprintf(stderr, "pmon: %s\n", msg);
}
