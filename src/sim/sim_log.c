/*
 * sim_log.c - the access log and the record of register-rule violations.
 *
 * The log is off until a caller gives it a size (pmon_sim_log_set_cap):
 * then a ring keeps the last log_cap entries.  The running totals (accesses,
 * successful writes) are kept either way; they cost two increments.
 * Violations are rare: their record is allocated at the first one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_log.h"

#define SIM_VIOL_KEEP 4096

/* The ring starts small and doubles up to log_cap; it wraps only once full,
 * so growing never has to reorder entries.  cap 0: no log. */
int sim_log_init(struct pmon_sim *sim, size_t cap)
{
	free(sim->log);
	sim->log = NULL;
	sim->log_alloc = 0;
	SIM_PUT(sim->log_cap, cap);
	sim->log_head = sim->log_n = 0;
	return 0;
}

void sim_log_free(struct pmon_sim *sim)
{
	free(sim->log);
	free(sim->viol);
	sim->log = NULL;
	sim->viol = NULL;
}

static int grow(struct pmon_sim *sim)
{
	size_t n = sim->log_alloc ? sim->log_alloc * 2 : 1024;
	struct pmon_sim_log_entry *log;

	if (n > sim->log_cap)
		n = sim->log_cap;
	log = realloc(sim->log, n * sizeof *log);
	if (!log)
		return -1;
	sim->log = log;
	sim->log_alloc = n;
	return 0;
}

/* Keep the access in sim->cur, served with this value and status, in the
 * log (which is on: log_cap > 0); sim_log_access counted it. */
void sim_log_keep(struct pmon_sim *sim, uint16_t domain, uint64_t value, int rc)
{
	struct pmon_sim_log_entry *e;

	if (sim->log_n < sim->log_cap) {
		if (sim->log_n == sim->log_alloc && grow(sim))
			return;                   /* out of memory: entry dropped */
		e = &sim->log[sim->log_n++];
	} else {
		e = &sim->log[sim->log_head];
		sim->log_head = (sim->log_head + 1) % sim->log_cap;
	}
	memset(e, 0, sizeof *e);
	e->op = sim->cur.op;
	e->cpu = sim->cur.cpu;
	e->msr = sim->cur.msr;
	e->domain = domain;
	e->bus = sim->cur.bus;
	e->dev = sim->cur.dev;
	e->func = sim->cur.func;
	e->off = sim->cur.off;
	e->value = value;
	e->status = rc;
}

void sim_violation(struct pmon_sim *sim, uint64_t bad, const char *fmt, ...)
{
	struct pmon_sim_violation *v;
	va_list ap;

	sim->viol_total++;
	if (sim->viol_n >= SIM_VIOL_KEEP)
		return;
	if (!sim->viol && !(sim->viol = calloc(SIM_VIOL_KEEP, sizeof *sim->viol)))
		return;                       /* out of memory: counted, not kept */
	v = &sim->viol[sim->viol_n++];
	memset(v, 0, sizeof *v);
	v->seq = sim->log_total + __atomic_load_n(&sim->log_unlocked, __ATOMIC_RELAXED);
						/* the access being served (logged next) */
	v->op = sim->cur.op;
	v->cpu = sim->cur.cpu;
	v->msr = sim->cur.msr;
	v->bus = sim->cur.bus;
	v->dev = sim->cur.dev;
	v->func = sim->cur.func;
	v->off = sim->cur.off;
	v->value = sim->cur.value;
	v->bad = bad;
	va_start(ap, fmt);
	vsnprintf(v->reg, sizeof v->reg, fmt, ap);
	va_end(ap);
}

int sim_fail(struct pmon_sim *sim, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sim->why, sizeof sim->why, fmt, ap);
	va_end(ap);
	return rc;
}

/* A size_t field read under the machine's lock. */
static size_t locked(const struct pmon_sim *sim, const size_t *field)
{
	size_t v;

	sim_lock(sim);
	v = *field;
	sim_unlock(sim);
	return v;
}

size_t pmon_sim_log_count(const pmon_sim_t *sim)
{
	return locked(sim, &sim->log_n);
}

/* The entry stays valid until the ring wraps over it or the log is cleared. */
const struct pmon_sim_log_entry *pmon_sim_log_get(const pmon_sim_t *sim, size_t i)
{
	const struct pmon_sim_log_entry *e = NULL;

	sim_lock(sim);
	if (i < sim->log_n)               /* log_n > 0: log_cap > 0 */
		e = &sim->log[(sim->log_head + i) % sim->log_cap];
	sim_unlock(sim);
	return e;
}

size_t pmon_sim_log_writes(const pmon_sim_t *sim)
{
	return locked(sim, &sim->log_writes);
}

size_t pmon_sim_log_total(const pmon_sim_t *sim)
{
	return locked(sim, &sim->log_total) + __atomic_load_n(&sim->log_unlocked, __ATOMIC_RELAXED);
}

size_t pmon_sim_log_cap(const pmon_sim_t *sim)
{
	return locked(sim, &sim->log_cap);
}

void pmon_sim_log_clear(pmon_sim_t *sim)
{
	sim_lock(sim);
	sim->log_head = sim->log_n = 0;
	sim->log_total = sim->log_writes = 0;
	__atomic_store_n(&sim->log_unlocked, 0, __ATOMIC_RELAXED);
	sim->viol_n = sim->viol_total = 0;
	sim_unlock(sim);
}

void pmon_sim_log_set_cap(pmon_sim_t *sim, size_t cap)
{
	sim_lock(sim);
	sim_log_init(sim, cap);
	sim_unlock(sim);
}

size_t pmon_sim_violation_count(const pmon_sim_t *sim)
{
	return locked(sim, &sim->viol_total);
}

const struct pmon_sim_violation *pmon_sim_violation_get(const pmon_sim_t *sim, size_t i)
{
	const struct pmon_sim_violation *v;

	sim_lock(sim);
	v = i < sim->viol_n ? &sim->viol[i] : NULL;
	sim_unlock(sim);
	return v;
}
