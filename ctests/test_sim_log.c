/*
 * test_sim_log.c - the access log: off by default (totals counted, nothing
 * kept), one entry per MSR/PCI access with its value and status once on,
 * successful-write counting, violations tied to their access, clearing, the
 * ring cap, growth, turning it off, and concurrent use.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>

/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

static void contents(void)
{
	const struct pmon_sim_log_entry *e;
	uint64_t v;
	uint32_t d;

	machine(NULL);
	pmon_sim_log_set_cap(sim, 1u << 20);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 0, "empty log");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 0, "no writes");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 0, "no accesses");
	CHECK_EQ_U64(pmon_sim_log_cap(sim), 1u << 20, "cap as set");
	CHECK(pmon_sim_log_get(sim, 0) == NULL, "no entry 0");

	/* 0: MSR write */
	CHECK_EQ_INT(acc->ops->msr_write(acc, 17, 0xD30, 0x400000, op_why, sizeof op_why), 0, "write");
	e = pmon_sim_log_get(sim, 0);
	CHECK(e && e->op == PMON_SIM_MSR_WRITE && e->cpu == 17 && e->msr == 0xD30 &&
	      e->value == 0x400000 && e->status == 0, "MSR write entry");
	/* 1: MSR read returns the value */
	acc->ops->msr_read(acc, 16, 0xD30, &v, op_why, sizeof op_why);
	e = pmon_sim_log_get(sim, 1);
	CHECK(e && e->op == PMON_SIM_MSR_READ && e->cpu == 16 && e->msr == 0xD30 &&
	      e->value == 0x400000 && e->status == 0, "MSR read entry");
	/* 2: unknown MSR */
	CHECK_EQ_INT(acc->ops->msr_read(acc, 3, 0x1234, &v, op_why, sizeof op_why), PMON_EIO, "unknown MSR");
	e = pmon_sim_log_get(sim, 2);
	CHECK(e && e->op == PMON_SIM_MSR_READ && e->msr == 0x1234 && e->status == PMON_EIO &&
	      e->value == 0, "failed read entry");
	CHECK(strstr(op_why, "0x1234") != NULL, "why: %s", op_why);
	/* 3: a CPU that does not exist */
	CHECK_EQ_INT(acc->ops->msr_write(acc, 32, 0xD04, 0, op_why, sizeof op_why), PMON_ENODEV, "no CPU 32");
	CHECK_EQ_INT(pmon_sim_log_get(sim, 3)->status, PMON_ENODEV, "logged");
	CHECK(strstr(op_why, "CPU 32") != NULL, "why: %s", op_why);
	/* 4: PCI read */
	acc->ops->pci_read(acc, at(0x7f, 14, 1), 0, &d, op_why, sizeof op_why);
	e = pmon_sim_log_get(sim, 4);
	CHECK(e && e->op == PMON_SIM_PCI_READ && e->domain == 0 && e->bus == 0x7f && e->dev == 14 &&
	      e->func == 1 && e->off == 0 && e->value == 0x3c468086 && e->status == 0,
	      "PCI read entry");
	/* 5: PCI write refused */
	CHECK_EQ_INT(acc->ops->pci_write(acc, at(0x3f, 16, 0), 0x90, 5, op_why, sizeof op_why), PMON_EIO, "refused");
	e = pmon_sim_log_get(sim, 5);
	CHECK(e && e->op == PMON_SIM_PCI_WRITE && e->bus == 0x3f && e->dev == 16 && e->func == 0 &&
	      e->off == 0x90 && e->value == 5 && e->status == PMON_EIO, "refused write entry");
	/* 6: PCI write accepted, with a violation */
	CHECK_EQ_INT(acc->ops->pci_write(acc, at(0x3f, 16, 0), 0xF4, 0x10101, op_why, sizeof op_why), 0, "iMC box ctl");
	e = pmon_sim_log_get(sim, 6);
	CHECK(e && e->op == PMON_SIM_PCI_WRITE && e->off == 0xF4 && e->value == 0x10101 &&
	      e->status == 0, "accepted write entry");
	/* 7: refused core write */
	CHECK_EQ_INT(acc->ops->msr_write(acc, 0, 0x1A6, 1ull << 12, op_why, sizeof op_why), PMON_EIO, "RSP bit 12");
	/* find and ident are not register accesses */
	struct pmon_cpuid id;
	pmon_pci_addr_t out[4];
	acc->ops->pci_find(acc, 0x8086, 0x3ce0, out, 4, op_why, sizeof op_why);
	acc->ops->cpu_ident(acc, &id, op_why, sizeof op_why);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 8, "eight entries");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 8, "total");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 2, "successful writes: 0 and 6");

	CHECK_EQ_U64(pmon_sim_violation_count(sim), 2, "violations");
	const struct pmon_sim_violation *x = pmon_sim_violation_get(sim, 0);
	CHECK(x && x->seq == 6 && !strcmp(x->reg, "iMC0 BOX_CTL") && x->bad == 1 &&
	      x->op == PMON_SIM_PCI_WRITE && x->value == 0x10101, "violation of access 6");
	x = pmon_sim_violation_get(sim, 1);
	CHECK(x && x->seq == 7 && !strcmp(x->reg, "MSR_OFFCORE_RSP_0") && x->bad == 1ull << 12 &&
	      x->op == PMON_SIM_MSR_WRITE && x->cpu == 0 && x->msr == 0x1A6,
	      "violation of access 7");
	CHECK(pmon_sim_violation_get(sim, 2) == NULL, "no third");

	pmon_sim_log_clear(sim);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 0, "cleared");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 0, "total cleared");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 0, "writes cleared");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 0, "violations cleared");
	/* the machine state survives clearing */
	acc->ops->msr_read(acc, 16, 0xD30, &v, op_why, sizeof op_why);
	CHECK_EQ_U64(v, 0x400000, "register kept");
	CHECK_EQ_U64(pmon_sim_log_get(sim, 0)->value, 0x400000, "fresh log entry");
}

/* A new machine keeps no entry, but counts accesses and violations; a cap
 * turns the log on, cap 0 off again. */
static void off_by_default(void)
{
	uint64_t v;

	machine("sockets=1");
	CHECK_EQ_U64(pmon_sim_log_cap(sim), 0, "log off on a new machine");
	CHECK_EQ_INT(acc->ops->msr_write(acc, 0, 0xC16, 0x400000, op_why, sizeof op_why), 0, "write");
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xC16, &v, op_why, sizeof op_why), 0, "read");
	CHECK_EQ_U64(v, 0x400000, "the machine works without the log");
	/* bit 12 of MSR_OFFCORE_RSP_0 is reserved: refused, recorded */
	CHECK_EQ_INT(acc->ops->msr_write(acc, 0, 0x1A6, 1ull << 12, op_why, sizeof op_why), PMON_EIO, "RSP bit 12");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 3, "three accesses counted");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 1, "one successful write");
	CHECK_EQ_U64(pmon_sim_log_count(sim), 0, "no entry kept");
	CHECK(pmon_sim_log_get(sim, 0) == NULL, "no entry 0");
	CHECK_EQ_U64(pmon_sim_violation_count(sim), 1, "the violation recorded");
	CHECK(pmon_sim_violation_get(sim, 0) && pmon_sim_violation_get(sim, 0)->seq == 2,
	      "violation of access 2");

	pmon_sim_log_set_cap(sim, 4);
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xC16, &v, op_why, sizeof op_why), 0, "read");
	CHECK_EQ_U64(pmon_sim_log_count(sim), 1, "kept once on");
	CHECK_EQ_U64(pmon_sim_log_get(sim, 0)->value, 0x400000, "the read's value");
	pmon_sim_log_set_cap(sim, 0);
	CHECK_EQ_INT(acc->ops->msr_read(acc, 0, 0xC16, &v, op_why, sizeof op_why), 0, "read");
	CHECK_EQ_U64(pmon_sim_log_cap(sim), 0, "off again");
	CHECK_EQ_U64(pmon_sim_log_count(sim), 0, "nothing kept");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 5, "still counted");
}

static void cap_and_growth(void)
{
	machine("sockets=1");
	pmon_sim_log_set_cap(sim, 5);
	for (uint64_t i = 0; i < 12; i++)
		acc->ops->msr_write(acc, 0, 0xC16, i, op_why, sizeof op_why);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 5, "ring keeps 5");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 12, "total 12");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 12, "writes 12");
	for (size_t i = 0; i < 5; i++)
		CHECK_EQ_U64(pmon_sim_log_get(sim, i)->value, 7 + i, "oldest kept first");
	CHECK(pmon_sim_log_get(sim, 5) == NULL, "beyond the ring");

	pmon_sim_log_set_cap(sim, 1u << 20);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 0, "set_cap empties the ring");
	for (uint64_t i = 0; i < 5000; i++)
		acc->ops->msr_write(acc, 0, 0xC17, i, op_why, sizeof op_why);
	CHECK_EQ_U64(pmon_sim_log_count(sim), 5000, "grown past the first allocation");
	CHECK_EQ_U64(pmon_sim_log_get(sim, 4999)->value, 4999, "last entry");
	CHECK_EQ_U64(pmon_sim_log_get(sim, 1024)->value, 1024, "entry across a growth step");
}

static void *hammer(void *arg)
{
	int cpu = *(int *)arg;
	for (uint64_t i = 0; i < 20000; i++) {
		acc->ops->msr_write(acc, cpu, 0x1A6, i & 0xFF, op_why, sizeof op_why);
		/* a new line each time: every load misses the caches */
		pmon_sim_traffic(sim, cpu, ((uint64_t)cpu << 22) + i * 64, PMON_SIM_LOAD, 1);
	}
	return NULL;
}

static void threads(void)
{
	pthread_t th[2];
	int cpus[2] = { 0, 2 };
	struct pmon_sim_truth t;
	uint64_t rd = 0;

	machine("sockets=1");
	pmon_sim_log_set_cap(sim, 1000);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, hammer, &cpus[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_U64(pmon_sim_log_total(sim), 40000, "every access logged");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 40000, "every write counted");
	CHECK_EQ_U64(pmon_sim_log_count(sim), 1000, "capped");
	for (int c = 0; c < 4; c++) {
		pmon_sim_channel_truth(sim, 0, c, &t);
		rd += t.cas_rd;
	}
	CHECK_EQ_U64(rd, 40000, "every load (a new line) reached DRAM");
}

int main(void)
{
	contents();
	off_by_default();
	cap_and_growth();
	threads();
	sim_teardown();
	return check_done("test_sim_log");
}
