/*
 * sim_log.h - the access log and the violation records (sim_log.c).
 */
#ifndef PMON_SIM_LOG_H
#define PMON_SIM_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "sim_machine.h"

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

/* ---- log and violations (sim_log.c) ---- */
int sim_log_init(struct pmon_sim *sim, size_t cap);
void sim_log_free(struct pmon_sim *sim);
void sim_log_keep(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc);
/* One access served (described by sim->cur): counted, and kept when the
 * log is on. */
static inline void sim_log_access(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc)
{
	sim->log_total++;
	if (rc == 0 && (sim->cur.op == PMON_SIM_MSR_WRITE || sim->cur.op == PMON_SIM_PCI_WRITE))
		sim->log_writes++;
	if (sim->log_cap)
		sim_log_keep(sim, domain, value, rc);
}
void sim_violation(struct pmon_sim *sim, uint64_t bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fail the current access: set sim->why, return rc. */
int sim_fail(struct pmon_sim *sim, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#pragma GCC visibility pop

#endif
