/*
 * test_faults.c - every single failing register access of a start/read/stop
 * cycle, on an MSR uncore box (PCU), the core PMU (offcore response: event
 * select, RSP MSR, IA32_PERF_GLOBAL_CTRL) and a PCI box (iMC channel 0 with
 * its fixed counter), through a fault-injecting wrapper around the emulated
 * machine's backend.
 *
 * A clean cycle is counted first (R reads, W writes).  Then for each access
 * k of each kind (read, write), each error (PMON_EIO, PMON_ENODEV "went
 * away") and each duration (once: a transient fault; from k on: the device
 * is gone), the cycle runs again and:
 *  - a transient fault ends with every register as before the cycle (the
 *    restore retries), and every call that failed returns the injected code;
 *  - a lasting fault returns the injected code, and every register that is
 *    not as before is named (by its address) in the error of the call that
 *    gave up on it;
 *  - a transient fault of one of the read call's own accesses fails that
 *    read with the injected code (a read is never made again to hide it).
 * Registers are compared through the unwrapped backend.  Box controls are
 * write-only on silicon and the emulator, so they are not compared.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "machine.h"

struct fault_acc {
	struct pmon_access a;
	struct pmon_access *real;
	long nread, nwrite;      /* accesses seen */
	int armed, writes, code, lasting;
	long at;
	long fired;
};

static int hit(struct fault_acc *f, int write, char *why, size_t len)
{
	long k = write ? f->nwrite++ : f->nread++;
	if (!f->armed || write != f->writes || k < f->at || (!f->lasting && k != f->at))
		return 0;
	f->fired++;
	if (why && len)
		snprintf(why, len, "injected %s at %s %ld", f->code == PMON_EIO ? "EIO" : "ENXIO",
			 write ? "write" : "read", k);
	return f->code;
}

#define F(a) ((struct fault_acc *)(a))
static int w_msr_read(struct pmon_access *a, int cpu, uint32_t msr, uint64_t *v, char *why, size_t l)
{
	int rc = hit(F(a), 0, why, l);
	return rc ? rc : F(a)->real->ops->msr_read(F(a)->real, cpu, msr, v, why, l);
}
static int w_msr_write(struct pmon_access *a, int cpu, uint32_t msr, uint64_t v, char *why, size_t l)
{
	int rc = hit(F(a), 1, why, l);
	return rc ? rc : F(a)->real->ops->msr_write(F(a)->real, cpu, msr, v, why, l);
}
static int w_pci_read(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *v,
		      char *why, size_t l)
{
	int rc = hit(F(a), 0, why, l);
	return rc ? rc : F(a)->real->ops->pci_read(F(a)->real, d, off, v, why, l);
}
static int w_pci_write(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t v,
		       char *why, size_t l)
{
	int rc = hit(F(a), 1, why, l);
	return rc ? rc : F(a)->real->ops->pci_write(F(a)->real, d, off, v, why, l);
}
static int w_pci_block(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *v, int n,
		       char *why, size_t l)
{
	int rc = hit(F(a), 0, why, l);
	return rc ? rc : F(a)->real->ops->pci_read_block(F(a)->real, d, off, v, n, why, l);
}

/* A batch: each of its reads may fail on its own, as a single read would;
 * the others are served by the real backend's batch, one by one. */
static int w_read_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
			uint64_t *at_ns, char *why, size_t l)
{
	for (int i = 0; i < n; i++) {
		int b = 0, rc = hit(F(a), 0, why, l);
		if (!rc)
			rc = F(a)->real->ops->read_batch(F(a)->real, &req[i], 1, &b, at_ns, why, l);
		if (rc) {
			*bad = i;
			return rc;
		}
	}
	return PMON_OK;
}

static struct pmon_access_ops wops;
static struct fault_acc fw;
static pmon_machine_t *m;
static struct pmon_access *real;
static char err[512];

/* The registers compared: where they are and how the error names them. */
struct reg { int pci; int cpu; uint32_t addr; char tag[48]; };
static struct reg regs[32];
static int nregs;

static void add_msr(int cpu, uint32_t msr)
{
	struct reg *r = &regs[nregs++];
	r->pci = 0;
	r->cpu = cpu;
	r->addr = msr;
	snprintf(r->tag, sizeof(r->tag), "(MSR 0x%x)", msr);
}

static void add_pci(uint32_t off)
{
	struct reg *r = &regs[nregs++];
	r->pci = 1;
	r->cpu = -1;
	r->addr = off;
	snprintf(r->tag, sizeof(r->tag), "10.0 offset 0x%x)", off);
}

static pmon_pci_addr_t imc0;

static void snapshot(uint64_t *v)
{
	for (int i = 0; i < nregs; i++) {
		v[i] = 0xdeadbeef;
		if (regs[i].pci) {
			uint32_t x;
			if (real->ops->pci_read(real, imc0, regs[i].addr, &x, NULL, 0) == 0)
				v[i] = x;
		} else {
			real->ops->msr_read(real, regs[i].cpu, regs[i].addr, &v[i], NULL, 0);
		}
	}
}

static void put_back(const uint64_t *v)
{
	for (int i = 0; i < nregs; i++)
		if (regs[i].pci)
			real->ops->pci_write(real, imc0, regs[i].addr, (uint32_t)v[i], NULL, 0);
		else
			real->ops->msr_write(real, regs[i].cpu, regs[i].addr, v[i], NULL, 0);
	real->ops->msr_write(real, 0, 0xc24, 0, NULL, 0);           /* PCU box control */
	real->ops->pci_write(real, imc0, 0xf4, 0, NULL, 0);         /* iMC box control */
}

static const char *events[] = {
	"snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0",
	"snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=2",
	"snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
	"snbep_unc_imc0::UNC_M_CLOCKTICKS:socket=0",
};

/* One start/read/stop cycle; the codes and messages of the calls that failed,
 * and the reads seen when the read call began and ended. */
struct outcome { int rc[3]; char msg[3][1024]; long read_from, read_to; };

static void cycle(struct outcome *o)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	uint64_t v[4];
	memset(o, 0, sizeof(*o));
	pmon_session_create(m, &s);
	for (int i = 0; i < 4; i++) {
		pmon_machine_encode(m, events[i], &e, err, sizeof(err));
		pmon_session_add(s, &e);
	}
	o->rc[0] = pmon_session_start(s);
	snprintf(o->msg[0], sizeof(o->msg[0]), "%s", pmon_session_errmsg(s));
	if (!o->rc[0]) {
		pmon_sim_advance_ns(pmon_sim_current(), 1000);
		o->read_from = fw.nread;
		o->rc[1] = pmon_session_read(s, v);
		o->read_to = fw.nread;
		snprintf(o->msg[1], sizeof(o->msg[1]), "%s", pmon_session_errmsg(s));
		o->rc[2] = pmon_session_stop(s, v);
		snprintf(o->msg[2], sizeof(o->msg[2]), "%s", pmon_session_errmsg(s));
	}
	pmon_session_destroy(s);
}

int main(void)
{
	char dir[] = "/tmp/pmon-faults-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	setenv("PMON_RUN_DIR", dir, 1);
	setenv("PMON_SIM", "clock=manual", 1);
	setenv("PMON_QUIET", "1", 1);
	if (pmon_machine_open(&m, "sim", err, sizeof(err))) {
		CHECK(0, "%s", err);
		return check_done("test_faults");
	}
	real = m->acc;
	wops = *real->ops;
	wops.msr_read = w_msr_read;
	wops.msr_write = w_msr_write;
	wops.pci_read = w_pci_read;
	wops.pci_write = w_pci_write;
	wops.pci_read_block = w_pci_block;
	wops.read_batch = w_read_batch;
	fw.a.ops = &wops;
	fw.real = real;
	fw.a.priv = real->priv;          /* the emulated machine, for its clock */
	m->acc = &fw.a;
	imc0 = (pmon_pci_addr_t){ 0, (uint8_t)pmon_sim_socket_bus(pmon_sim_current(), 0), 16, 0 };

	for (uint32_t c = 0; c < 4; c++)
		add_msr(0, 0xc30 + c);                       /* PCU CTL0-3 */
	add_msr(0, 0xc34);                                   /* PCU filter */
	for (uint32_t c = 0; c < 4; c++)
		add_msr(2, 0x186 + c);                       /* IA32_PERFEVTSEL0-3 */
	add_msr(2, 0x1a6);                                   /* MSR_OFFCORE_RSP_0 */
	add_msr(2, 0x38f);                                   /* IA32_PERF_GLOBAL_CTRL */
	for (uint32_t c = 0; c < 4; c++)
		add_pci(0xd8 + 4 * c);                       /* iMC CTL0-3 */
	add_pci(0xf0);                                       /* iMC fixed control */

	/* another agent's state that must survive: fixed counters enabled globally */
	real->ops->msr_write(real, 2, 0x38f, 0x700000000ull, NULL, 0);
	uint64_t before[32], after[32];
	snapshot(before);

	struct outcome o;
	fw.nread = fw.nwrite = 0;
	cycle(&o);
	long R = fw.nread, W = fw.nwrite, read_from = o.read_from, read_to = o.read_to;
	CHECK(o.rc[0] == 0 && o.rc[1] == 0 && o.rc[2] == 0, "clean cycle: %s %s %s", o.msg[0],
	      o.msg[1], o.msg[2]);
	snapshot(after);
	CHECK(!memcmp(before, after, sizeof(uint64_t) * (size_t)nregs), "clean cycle restores");

	static const int codes[2] = { PMON_EIO, PMON_ENODEV };
	long runs = 0, transient_bad = 0, lasting_unnamed = 0, wrong_code = 0, left_changed = 0;
	long read_hidden = 0;
	CHECK(read_to > read_from, "the read call reads (%ld to %ld)", read_from, read_to);
	for (int wr = 0; wr < 2; wr++)
		for (int ci = 0; ci < 2; ci++)
			for (int lasting = 0; lasting < 2; lasting++)
				for (long k = 0; k < (wr ? W : R); k++) {
					fw.nread = fw.nwrite = 0;
					fw.armed = 1;
					fw.writes = wr;
					fw.code = codes[ci];
					fw.lasting = lasting;
					fw.at = k;
					fw.fired = 0;
					cycle(&o);
					fw.armed = 0;
					runs++;
					snapshot(after);
					int failed = 0;
					for (int c = 0; c < 3; c++)
						if (o.rc[c]) {
							failed = 1;
							if (o.rc[c] != codes[ci]) {
								wrong_code++;
								fprintf(stderr, "%s %ld %s: call %d: %d %s\n",
									wr ? "write" : "read", k,
									lasting ? "lasting" : "once", c,
									o.rc[c], o.msg[c]);
							}
						}
					int changed = 0;
					for (int i = 0; i < nregs; i++) {
						if (before[i] == after[i])
							continue;
						changed = 1;
						int named = 0;
						for (int c = 0; c < 3; c++)
							named |= o.rc[c] && strstr(o.msg[c], regs[i].tag) != NULL;
						if (!lasting || !named) {
							if (lasting) lasting_unnamed++; else transient_bad++;
							fprintf(stderr, "%s %ld %s %s: %s left 0x%llx (was 0x%llx): "
								"%s | %s | %s\n", wr ? "write" : "read", k,
								lasting ? "lasting" : "once",
								codes[ci] == PMON_EIO ? "EIO" : "ENXIO", regs[i].tag,
								(unsigned long long)after[i],
								(unsigned long long)before[i], o.msg[0], o.msg[1],
								o.msg[2]);
						}
					}
					left_changed += changed;
					if (fw.fired && !failed && lasting)
						wrong_code++;   /* a lasting fault must be reported */
					if (!wr && !lasting && k >= read_from && k < read_to &&
					    o.rc[1] != codes[ci]) {
						read_hidden++;
						fprintf(stderr, "read %ld once: the read call gave %d (%s)\n",
							k, o.rc[1], o.msg[1]);
					}
					put_back(before);
				}
	CHECK(runs == 4 * (R + W), "every access of the cycle failed once in each mode");
	CHECK_EQ_INT(transient_bad, 0, "transient faults: every register restored");
	CHECK_EQ_INT(lasting_unnamed, 0, "lasting faults: every register left changed is named");
	CHECK_EQ_INT(wrong_code, 0, "the injected error reaches the caller");
	CHECK_EQ_INT(read_hidden, 0, "a transient fault of the read call's accesses fails the read");
	printf("fault injection: clean cycle %ld reads %ld writes; %ld faulty cycles, %ld left "
	       "registers changed (all named)\n", R, W, runs, left_changed);
	m->acc = real;
	pmon_machine_close(m);
	CHECK(rmdir(dir) == 0, "no lock or journal left");
	return check_done("test_faults");
}
