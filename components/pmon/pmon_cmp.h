/*
 * pmon_cmp.h - the calls between the pmon component's files (PAPI's
 * component interface is the vector, _pmon_vector):
 *   pmon_component.c  init and shutdown, event sets: one pmon session each,
 *                     control state, counting, options (domain, multiplex)
 *   pmon_native.c     native events: the table of names (base events at
 *                     init, options and full names as asked), enumeration,
 *                     name <-> code, descriptions and units
 *   pmon_cmp.c        what both use: the machine, error codes, messages
 */
#ifndef PMON_CMP_H
#define PMON_CMP_H

#include "papi.h"

#include "pmon/pmon.h"

#pragma GCC visibility push(hidden)

/* pmon_cmp.c */
extern pmon_machine_t *pmon_cmp_machine;   /* opened at init */
/* PAPI's error code for libpmon's rc. */
int pmon_cmp_to_papi(int rc);
/* libpmon's reason on stderr, unless PMON_QUIET is set (not "0"). */
void pmon_cmp_complain(const char *msg);

/* pmon_native.c */
/* The base events (PMU::EVENT of each present box) in the table: their
 * number, or PAPI_ENOMEM. */
int pmon_cmp_build_events(void);
void pmon_cmp_free_events(void);
/* The name and description of event code (either may be NULL). */
int pmon_cmp_entry_copy(unsigned code, char *name, int nlen, char *desc, int dlen);
int pmon_cmp_ntv_enum_events(unsigned *code, int modifier);
int pmon_cmp_ntv_name_to_code(const char *name, unsigned *code);
int pmon_cmp_ntv_code_to_name(unsigned code, char *name, int len);
int pmon_cmp_ntv_code_to_descr(unsigned code, char *desc, int len);
int pmon_cmp_ntv_code_to_info(unsigned code, PAPI_event_info_t *info);

#pragma GCC visibility pop

#endif
