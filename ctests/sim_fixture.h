/*
 * sim_fixture.h - the shared fixture of the emulator's tests (test_sim_*.c):
 * one emulated machine and the sim backend opened on it, built from a shape
 * string, and register access through that backend.
 *
 * Static inline, with static state, because ctests/check.h keeps its
 * pass/fail counters per program: every test program gets its own copy and
 * its checks count in its own result.  Includes check.h.
 *
 * Which helpers record a check: machine() two (the parse and the open),
 * sim_attach() one (the open); rdmsr, rd and pci_rd one each (the access
 * succeeded); wrmsr_ok, wr_ok and pci_wr_ok one each.  wrmsr, wr, pci_wr
 * and pci_rd64 record none: they leave the status to the caller.
 */
#ifndef PMON_SIM_FIXTURE_H
#define PMON_SIM_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "access.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"

/* A test whose exact counts are about something other than the
 * prefetchers (on by default, as on silicon) defines SIM_FIXTURE_PIN as the
 * keys its machines get first, "prefetch=off," say, before including this
 * file; a spec naming prefetch= itself keeps its own. */
#ifndef SIM_FIXTURE_PIN
#define SIM_FIXTURE_PIN ""
#endif

static inline const char *sim_pinned(const char *spec, char *buf, size_t len)
{
	if (!SIM_FIXTURE_PIN[0] || (spec && strstr(spec, "prefetch=")))
		return spec;
	snprintf(buf, len, "%s%s", SIM_FIXTURE_PIN, spec ? spec : "");
	return buf;
}

/* The reason a register access gives when it fails. */
static char op_why[256];

/* The machine under test and the backend opened on it. */
static pmon_sim_t *sim;
static struct pmon_access *acc;

/* Close the backend and destroy the machine, if any. */
static inline void sim_teardown(void)
{
	if (acc)
		acc->ops->close(acc);
	acc = NULL;
	pmon_sim_destroy(sim);
	sim = NULL;
}

/* A machine of the shape spec, parsed without a check; not made current. */
static inline pmon_sim_t *sim_new(const char *spec)
{
	struct pmon_sim_shape sh;
	char buf[512];

	pmon_sim_shape_parse(sim_pinned(spec, buf, sizeof buf), &sh, NULL, 0);
	return pmon_sim_create(&sh);
}

/* Make m the machine under test and the current one; open the backend. */
static inline void sim_attach(pmon_sim_t *m)
{
	char err[256];

	sim = m;
	pmon_sim_set_current(sim);
	CHECK_EQ_INT(pmon_sim_access_open(&acc, err, sizeof err), 0, err);
}

/* Replace the machine under test by a new one of the shape spec. */
static inline void machine(const char *spec)
{
	struct pmon_sim_shape sh;
	char err[256], buf[512];

	sim_teardown();
	CHECK_EQ_INT(pmon_sim_shape_parse(sim_pinned(spec, buf, sizeof buf), &sh, err, sizeof err), 0,
		     err);
	sim_attach(pmon_sim_create(&sh));
}

/* ------------------------------------------------------------------ MSRs */

static inline uint64_t rdmsr(int cpu, uint32_t msr)
{
	uint64_t v = 0;
	CHECK_EQ_INT(acc->ops->msr_read(acc, cpu, msr, &v, op_why, sizeof op_why), 0, "msr read");
	return v;
}

static inline int wrmsr(int cpu, uint32_t msr, uint64_t v)
{
	return acc->ops->msr_write(acc, cpu, msr, v, op_why, sizeof op_why);
}

static inline void wrmsr_ok(int cpu, uint32_t msr, uint64_t v)
{
	CHECK_EQ_INT(wrmsr(cpu, msr, v), 0, "msr write");
}

/* ------------------------------------------------------------------- PCI */

static inline pmon_pci_addr_t at(int bus, int dev, int func)
{
	pmon_pci_addr_t d = { 0, (uint8_t)bus, (uint8_t)dev, (uint8_t)func };
	return d;
}

/* iMC channel ch (0-3) of the socket on bus: device 16, functions 0, 1, 4, 5 */
static inline pmon_pci_addr_t imc(int bus, int ch)
{
	static const int func[4] = { 0, 1, 4, 5 };
	return at(bus, 16, func[ch]);
}

static inline uint32_t pci_rd(pmon_pci_addr_t d, uint32_t off)
{
	uint32_t v = 0xdeadbeef;
	CHECK_EQ_INT(acc->ops->pci_read(acc, d, off, &v, op_why, sizeof op_why), 0, "pci read");
	return v;
}

static inline int pci_wr(pmon_pci_addr_t d, uint32_t off, uint32_t v)
{
	return acc->ops->pci_write(acc, d, off, v, op_why, sizeof op_why);
}

static inline void pci_wr_ok(pmon_pci_addr_t d, uint32_t off, uint32_t v)
{
	CHECK_EQ_INT(pci_wr(d, off, v), 0, "pci write");
}

/* The 64-bit counter whose low dword is at off, high at off + 4 (unchecked). */
static inline uint64_t pci_rd64(pmon_pci_addr_t d, uint32_t off)
{
	uint32_t lo = 0, hi = 0;
	acc->ops->pci_read(acc, d, off, &lo, op_why, sizeof op_why);
	acc->ops->pci_read(acc, d, off + 4, &hi, op_why, sizeof op_why);
	return lo | ((uint64_t)hi << 32);
}

static inline uint32_t rd(int bus, int dev, int func, uint32_t off)
{
	return pci_rd(at(bus, dev, func), off);
}

static inline int wr(int bus, int dev, int func, uint32_t off, uint32_t v)
{
	return pci_wr(at(bus, dev, func), off, v);
}

static inline void wr_ok(int bus, int dev, int func, uint32_t off, uint32_t v)
{
	pci_wr_ok(at(bus, dev, func), off, v);
}

#endif
