/*
 * test_fold_sim.c - exact 64-bit totals over any gap, checks of what pmon
 * wrote, and two machine handles sharing one emulated machine (as two
 * processes share silicon).  No timed assertion: emulated time is manual.
 *
 * Gaps: a counter is started, emulated time moves on by 0.5, 1.5, 3.7 and
 * 100 of its wrap periods in ONE pmon_sim_advance_ns() call, and the only
 * read returns floor(T * uclk / 1e9) exactly, for a 44-bit CBo and a 48-bit
 * HA clocktick counter (both count UCLK).  The machine's fold tick runs
 * inside the advance every fold period (fold.h).  Advancing "stopped"
 * (no tick: the process was stopped) by more than the bound gives
 * PMON_ESTALE, never a number; a reset counts again.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim_machine.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"
#include "fold.h"

static pmon_machine_t *m;
static pmon_sim_t *sim;
static char err[512];

static uint64_t uclk_ticks(uint64_t t0, uint64_t t1)
{
	uint64_t hz = pmon_sim_shape(sim)->uclk_hz;
	return (uint64_t)((unsigned __int128)t1 * hz / 1000000000u) -
	       (uint64_t)((unsigned __int128)t0 * hz / 1000000000u);
}

static pmon_session_t *session_of(pmon_machine_t *mm, const char *ev)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	pmon_session_create(mm, &s);
	CHECK_EQ_INT(pmon_machine_encode(mm, ev, &e, err, sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, pmon_session_errmsg(s));
	return s;
}

/* One start, one advance of gap wrap periods, one read. */
static void gap(const char *ev, int width, double periods)
{
	pmon_session_t *s = session_of(m, ev);
	uint64_t hz = pmon_sim_shape(sim)->uclk_hz, v = 0;
	/* the wrap period of a counter counting UCLK: 2^width cycles */
	uint64_t wrap_ns = (uint64_t)((double)(1ull << width) / (double)hz * 1e9);
	uint64_t dt = (uint64_t)(periods * (double)wrap_ns);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, dt);
	int rc = pmon_session_read(s, &v);
	CHECK_EQ_INT(rc, PMON_OK, pmon_session_errmsg(s));
	uint64_t want = uclk_ticks(t0, t0 + dt);
	CHECK(v == want, "%s, %.1f wrap periods of %d bits: got %llu, want %llu", ev, periods, width,
	      (unsigned long long)v, (unsigned long long)want);
	CHECK((double)want > periods * (double)(1ull << width) * 0.999999, "the gap is %.1f periods",
	      periods);
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
}

static void gaps(void)
{
	static const double p[] = { 0.5, 1.5, 3.7, 100 };
	for (int i = 0; i < 4; i++) {
		gap("snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", 44, p[i]);
		gap("snbep_unc_ha::UNC_H_CLOCKTICKS:socket=1", 48, p[i]);
	}
}

static void stale(void)
{
	pmon_session_t *s = session_of(m, "snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0");
	uint64_t v = 12345, bound = pmon_fold_bound_ns(44);
	CHECK_EQ_U64(bound, (uint64_t)((unsigned __int128)(1ull << 44) * 1000000000u /
				       (4000000000ull * 64)), "bound of 44 bits");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	/* stopped for less than the bound: still exact */
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_stopped_ns(sim, bound / 2);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v, uclk_ticks(t0, t0 + bound / 2), "stopped for half the bound");
	/* stopped for longer: a wrap could have been missed */
	v = 12345;
	pmon_sim_advance_stopped_ns(sim, 2 * bound);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_ESTALE, "stopped for twice the bound");
	CHECK_EQ_U64(v, 12345, "no number");
	CHECK(strstr(pmon_session_errmsg(s), "wrap") && strstr(pmon_session_errmsg(s), "reset"),
	      "says why and what to do: %s", pmon_session_errmsg(s));
	/* the fold tick overdue at the next advance does not hide it */
	pmon_sim_advance_ns(sim, 1000);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_ESTALE, "still unknown after a fold");
	CHECK_EQ_INT(pmon_session_reset(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t1 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, 3 * bound);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v, uclk_ticks(t1, t1 + 3 * bound), "exact again after a reset");
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_OK, pmon_session_errmsg(s));
	pmon_session_destroy(s);
}

/* Another agent rewrites pmon's filter or control while it counts. */
static void changed_under_us(void)
{
	struct pmon_access *raw;
	uint64_t v = 777;
	CHECK_EQ_INT(pmon_sim_access_open(&raw, err, sizeof(err)), PMON_OK, err);
	pmon_session_t *s = session_of(m, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=3");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(raw->ops->msr_read(raw, 3, 0x1a6, &v, NULL, 0), 0, "offcore RSP_0 readable");
	CHECK_EQ_U64(v, 0x10001, "RSP_0 = DMND_DATA_RD | ANY_RESPONSE");
	raw->ops->msr_write(raw, 3, 0x1a6, 0x10002, NULL, 0);     /* someone else's request type */
	/* an MSR filter is checked by a read once PMON_VERIFY_NS has passed
	 * since the last check (doc/internals.md): not by the read right after it */
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, "read within the check interval");
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	v = 777;
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "read after the change");
	CHECK_EQ_U64(v, 777, "no number");
	CHECK(strstr(pmon_session_errmsg(s), "OFFCORE_RSP_0") && strstr(pmon_session_errmsg(s), "MSR 0x1a6") &&
	      strstr(pmon_session_errmsg(s), "cpu 3"), "names the register: %s", pmon_session_errmsg(s));
	CHECK_EQ_INT(pmon_session_stop(s, &v), PMON_EBUSY, "stop reports it too");
	raw->ops->msr_read(raw, 3, 0x1a6, &v, NULL, 0);
	CHECK_EQ_U64(v, 0x10002, "RSP_0 left as the other agent wrote it");
	CHECK(strstr(pmon_session_errmsg(s), "left as another agent set them") &&
	      strstr(pmon_session_errmsg(s), "OFFCORE_RSP_0 (MSR 0x1a6) = 0x10002"),
	      "stop says so: %s", pmon_session_errmsg(s));
	raw->ops->msr_write(raw, 3, 0x1a6, 0, NULL, 0);            /* the other agent is done */
	pmon_session_destroy(s);

	/* the global control: pmon's enable bit cleared by someone */
	s = session_of(m, "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE:cpu=5");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	raw->ops->msr_write(raw, 5, 0x38f, 0, NULL, 0);
	pmon_sim_advance_ns(sim, PMON_VERIFY_NS);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "global control changed");
	CHECK(strstr(pmon_session_errmsg(s), "IA32_PERF_GLOBAL_CTRL"), "names it: %s",
	      pmon_session_errmsg(s));
	pmon_session_destroy(s);

	/* a control rewritten (found by a fold of the tick, reported by the read) */
	s = session_of(m, "snbep_unc_cbo2::UNC_C_CLOCKTICKS:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	raw->ops->msr_write(raw, 0, 0xd50, 0, NULL, 0);           /* C2_MSR_PMON_CTL0 */
	pmon_sim_advance_ns(sim, pmon_fold_period_ns(44) * 2);
	v = 777;
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "control changed");
	CHECK(strstr(pmon_session_errmsg(s), "cbo2 socket 0 CTL0 (MSR 0xd50)"), "names CTL0: %s",
	      pmon_session_errmsg(s));
	CHECK_EQ_U64(v, 777, "no number");
	pmon_session_destroy(s);

	/* an iMC control comes in the counters' block: the very next read,
	 * no time passed, refuses (SNB-EP iMC channel 0: device 0x3cb0, CTL0
	 * at offset 0xd8, its counter's first control) */
	s = session_of(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	pmon_pci_addr_t ch0[2];
	CHECK_EQ_INT(raw->ops->pci_find(raw, 0x8086, 0x3cb0, ch0, 2, NULL, 0), 2, "one iMC ch0 per socket");
	uint32_t ctl = 0;
	CHECK_EQ_INT(raw->ops->pci_read(raw, ch0[0], 0xd8, &ctl, NULL, 0), 0, "CTL0 readable");
	CHECK((ctl & 0xff) == 0x04 && (ctl & (1u << 22)), "CTL0 holds CAS_COUNT (0x04) enabled: 0x%x", ctl);
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_OK, pmon_session_errmsg(s));
	raw->ops->pci_write(raw, ch0[0], 0xd8, ctl & ~(1u << 22), NULL, 0);   /* disabled by someone */
	v = 777;
	CHECK_EQ_INT(pmon_session_read(s, &v), PMON_EBUSY, "iMC control changed, next read");
	CHECK(strstr(pmon_session_errmsg(s), "CTL0") && strstr(pmon_session_errmsg(s), "offset 0xd8"),
	      "names CTL0: %s", pmon_session_errmsg(s));
	CHECK_EQ_U64(v, 777, "no number");
	pmon_session_destroy(s);
	pmon_session_destroy(NULL);
	raw->ops->close(raw);
}

/* Two machine handles on one emulated machine exclude each other per box. */
static void two_handles(void)
{
	pmon_machine_t *b;
	uint64_t v;
	char pid[64];
	CHECK_EQ_INT(pmon_machine_open(&b, "sim", err, sizeof(err)), PMON_OK, err);
	pmon_session_t *sa = session_of(m, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0");
	pmon_session_t *sb = session_of(b, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0");
	pmon_session_t *sc = session_of(b, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=1");
	CHECK_EQ_INT(pmon_session_start(sa), PMON_OK, pmon_session_errmsg(sa));
	size_t writes = pmon_sim_log_writes(sim);
	CHECK_EQ_INT(pmon_session_start(sb), PMON_EBUSY, "second handle refused");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), writes, "nothing written by the refused start");
	snprintf(pid, sizeof(pid), "already held by this process (pid %ld)", (long)getpid());
	CHECK(strstr(pmon_session_errmsg(sb), pid) && strstr(pmon_session_errmsg(sb), "socket0.snbep_unc_pcu") &&
	      strstr(pmon_session_errmsg(sb), "CTL0 (MSR 0xc30)") &&
	      strstr(pmon_session_errmsg(sb), "another pmon machine handle") &&
	      strstr(pmon_session_errmsg(sb), "stop the other handle's sessions on it first") &&
	      !strstr(pmon_session_errmsg(sb), "in use by process") &&
	      !strstr(pmon_session_errmsg(sb), "wait for it to stop"),
	      "names box, register and this process as the holder: %s", pmon_session_errmsg(sb));
	CHECK_EQ_INT(pmon_session_start(sc), PMON_OK, "other socket is free");
	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_session_read(sa, &v), PMON_OK, "the first handle's count is intact");
	CHECK_EQ_INT(pmon_session_stop(sa, &v), PMON_OK, pmon_session_errmsg(sa));
	CHECK_EQ_INT(pmon_session_start(sb), PMON_OK, "free after the first stops");
	CHECK_EQ_INT(pmon_session_stop(sb, &v), PMON_OK, pmon_session_errmsg(sb));
	pmon_session_destroy(sa);
	pmon_machine_close(b);        /* stops and restores sc */
}

/* Racing starts from two threads, each with its own machine handle. */
struct racer {
	pmon_machine_t *mm;
	const char *ev;
	pthread_barrier_t *bar;
	int rounds, won, refused, other;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	pmon_session_t *s;
	pmon_encoding_t e;
	uint64_t v;
	char w[256];
	pmon_session_create(r->mm, &s);
	pmon_machine_encode(r->mm, r->ev, &e, w, sizeof(w));
	pmon_session_add(s, &e);
	for (int i = 0; i < r->rounds; i++) {
		pthread_barrier_wait(r->bar);
		int rc = pmon_session_start(s);
		pthread_barrier_wait(r->bar);       /* both tried: now they overlap */
		if (rc == PMON_OK) {
			r->won++;
			if (pmon_session_stop(s, &v))
				r->other++;
		} else if (rc == PMON_EBUSY) {
			r->refused++;
		} else {
			r->other++;
		}
		pthread_barrier_wait(r->bar);
	}
	pmon_session_destroy(s);
	return NULL;
}

static void racing_handles(void)
{
	pmon_machine_t *b;
	pthread_barrier_t bar;
	pthread_t ta, tb;
	const int rounds = 300;
	uint64_t v;
	CHECK_EQ_INT(pmon_machine_open(&b, "sim", err, sizeof(err)), PMON_OK, err);
	pthread_barrier_init(&bar, NULL, 2);
	struct racer ra = { m, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=1", &bar, rounds, 0, 0, 0 };
	struct racer rb = { b, "snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=1", &bar, rounds, 0, 0, 0 };
	pthread_create(&ta, NULL, race, &ra);
	pthread_create(&tb, NULL, race, &rb);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&bar);
	CHECK_EQ_INT(ra.won + rb.won, rounds, "exactly one start won each round");
	CHECK_EQ_INT(ra.refused + rb.refused, rounds, "the other was refused");
	CHECK_EQ_INT(ra.other + rb.other, 0, "no other outcome");
	struct pmon_access *raw;
	pmon_sim_access_open(&raw, err, sizeof(err));
	int cpu = pmon_machine_socket_cpu(m, 1);
	raw->ops->msr_read(raw, cpu, 0xc30, &v, NULL, 0);
	CHECK_EQ_U64(v, 0, "PCU CTL0 restored");
	raw->ops->close(raw);
	pmon_machine_close(b);
	printf("racing starts: %d rounds, %d + %d won\n", rounds, ra.won, rb.won);
}

int main(void)
{
	char dir[] = "/tmp/pmon-fold-XXXXXX";
	if (!(sim = sim_machine_open(&m, dir, 1024, err, sizeof(err))))
		return check_done("test_fold_sim");
	gaps();
	stale();
	changed_under_us();
	two_handles();
	racing_handles();
	pmon_machine_close(m);
	CHECK(rmdir(dir) == 0, "nothing left in the run directory");
	return check_done("test_fold_sim");
}
