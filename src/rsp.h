/* rsp.h - the offcore-response registers of a CPU as one shared resource.
 *
 * OFFCORE_RESPONSE_0 and OFFCORE_RESPONSE_1 are one event counted through
 * either of two MSRs (MSR_OFFCORE_RSP_0 = 0x1A6 with event select 0xB7,
 * MSR_OFFCORE_RSP_1 = 0x1A7 with 0xBB), as libpfm4 and Linux perf treat
 * them.  The registers belong to a logical CPU, or to a physical core where
 * the generation shares them between hyperthreads (rsp_per_core: Nehalem,
 * Westmere); Nehalem has only the first.  Each register is a slot that holds
 * one mask (the RSP value).  An event goes, in this order of preference:
 *   1. to a slot already holding its mask (it shares the register);
 *   2. to the slot it names, when free;
 *   3. to another free slot: its encoding is rewritten to that slot (event
 *      select, filter word, filter fields, event index; the name it was
 *      given stays);
 * and when every slot holds another mask it is refused (PMON_ECONFLICT),
 * the message naming the masks in use and the events holding them. */
#ifndef PMON_RSP_H
#define PMON_RSP_H

#include <stddef.h>
#include "machine.h"

/* Place the offcore-response events of ev[nfixed..n-1], one after the other
 * in that order, around ev[0..nfixed-1], which keep the slots they hold.
 * Other events are left alone.  On a refusal the events placed before the
 * refused one keep their new slots. */
int pmon_rsp_place(const struct pmon_machine *m, pmon_encoding_t *const *ev, int n, int nfixed,
		   char *err, size_t errlen);

/* The same for an array of events (pointers made here). */
int pmon_rsp_place_array(const struct pmon_machine *m, pmon_encoding_t *ev, int n, int nfixed,
			 char *err, size_t errlen);

/* The slot (RSP register, filter word) an offcore-response event uses, or
 * -1 for any other event. */
int pmon_rsp_slot(const pmon_encoding_t *e);

#endif
