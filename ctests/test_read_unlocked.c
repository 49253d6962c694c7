/*
 * test_read_unlocked.c - a session's read without the registry's lock (and,
 * on the emulated machine, without the machine's) while another thread
 * moves emulated time on and folds every running session, as the machine's
 * fold thread does.
 *
 * The session counts QPI clockticks twice in one QPI box (one PCI block)
 * and CBo clockticks (an MSR).  Emulated time is manual: only the other
 * thread moves it, by STEP ns at a time, folding after each step.  Every
 * read of the owner must then be what one instant gives:
 *  - the two QPI counters equal (one block, read at one instant);
 *  - the QPI count = the ns elapsed at some instant between the start and
 *    now (QPI's clock is 1 GHz), never more, and never less than the last
 *    read's (a fold the read raced must not be mixed with the read's
 *    counters: that would give a count 2^48 too large or going back);
 *  - the CBo count = the UCLK cycles of the same instant.
 * After the other thread ends, one more read is exact.  Then the backend's
 * batch alone (the emulated machine's reads without its lock) while the
 * other thread only moves time on: the QPI block and the CBo MSR of one
 * batch, and the batch's instant, agree; and those reads were served
 * without the machine's lock, each counted.
 *
 * Both ways of the read are taken, and shown to be: reads finish while
 * another thread holds the sessions' lock; and a fold made exactly between
 * a read's counters and its totals (by a wrapper of the backend, on the
 * reader's own thread) sends it to the locked read, which is exact.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim_span.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "machine.h"
#include "access.h"
#include "registry.h"
#include "sim/sim_machine.h"

#define STEPS 100000
#define STEP 199u

static pmon_machine_t *m;
static pmon_sim_t *sim;
static char err[512];
static int done;

static void *mover(void *arg)
{
	int fold = arg != NULL;
	for (int i = 0; i < STEPS; i++) {
		pmon_sim_advance_ns(sim, STEP);
		if (fold)
			pmon_sessions_fold(m);
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The backend's batch of the session's QPI block and CBo counter while the
 * other thread moves time on (no fold). */
static void batches(pmon_session_t *s)
{
	struct pmon_access *a = m->acc;
	pmon_pci_addr_t qpi0 = { 0, (uint8_t)pmon_sim_socket_bus(sim, 0), 8, 2 };
	int q0 = pmon_session_counter(s, 0), q1 = pmon_session_counter(s, 1);
	int lo = q0 < q1 ? q0 : q1, hi = q0 < q1 ? q1 : q0, bad;
	uint32_t dw[8];
	uint64_t cbo, at, base_q, base_c, base_t, n = 0, bad_equal = 0, bad_cbo = 0, bad_at = 0;
	struct pmon_read_req req[2] = {
		{ .ndw = 2 * (hi - lo + 1), .d = qpi0, .off = 0xa0 + 8u * (uint32_t)lo, .dw = dw },
		{ .cpu = 0, .msr = 0xd16u + (uint32_t)pmon_session_counter(s, 2), .val = &cbo },
	};
	pthread_t t;
#define QPI(k) ((uint64_t)dw[2 * (k) + 1] << 32 | dw[2 * (k)])
	CHECK_EQ_INT(a->ops->read_batch(a, req, 2, &bad, &base_t, err, sizeof err), 0, err);
	base_q = QPI(0);
	base_c = cbo;
	done = 0;
	CHECK_EQ_INT(pthread_create(&t, NULL, mover, NULL), 0, "thread");
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (a->ops->read_batch(a, req, 2, &bad, &at, err, sizeof err)) {
			CHECK(0, "batch %llu: %s", (unsigned long long)n, err);
			break;
		}
		n++;
		uint64_t d = QPI(0) - base_q;
		bad_equal += QPI(0) != QPI(hi - lo);
		bad_at += at != base_t + d;
		bad_cbo += cbo - base_c != span_uclk(sim, base_t + d) - span_uclk(sim, base_t);
	}
#undef QPI
	pthread_join(t, NULL);
	CHECK(n > 0, "batches while the other thread ran (%llu)", (unsigned long long)n);
	CHECK_EQ_U64(bad_equal, 0, "batch: the two QPI counters equal");
	CHECK_EQ_U64(bad_at, 0, "batch: its instant the QPI count's");
	CHECK_EQ_U64(bad_cbo, 0, "batch: the CBo count of that instant");

	/* reads without the machine's lock still count as accesses, exactly */
	pmon_sim_log_clear(sim);
	int failed = 0;
	for (int i = 0; i < 1000; i++)
		failed += a->ops->read_batch(a, req, 2, &bad, &at, err, sizeof err) != 0;
	CHECK_EQ_INT(failed, 0, "1000 batches read");
	CHECK_EQ_U64(pmon_sim_log_total(sim), 1000u * (uint64_t)(req[0].ndw + 1),
		     "every dword and MSR of 1000 batches counted");
	CHECK_EQ_U64(__atomic_load_n(&sim->log_unlocked, __ATOMIC_RELAXED),
		     1000u * (uint64_t)(req[0].ndw + 1), "all of them served without the machine's lock");
	CHECK_EQ_U64(pmon_sim_log_writes(sim), 0, "and no write");
}

/* Reads by a thread of their own while this one holds the sessions' lock. */
struct locked_out { pmon_session_t *s; int done, failed; };

static void *reader(void *arg)
{
	struct locked_out *o = arg;
	uint64_t v[3];
	for (int i = 0; i < 100; i++)
		o->failed += pmon_session_read(o->s, v) != PMON_OK;
	__atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void reads_while_locked(pmon_session_t *s)
{
	struct locked_out o = { s, 0, 0 };
	pthread_t t;
	pmon_registry_lock(&m->sessions);
	CHECK_EQ_INT(pthread_create(&t, NULL, reader, &o), 0, "thread");
	for (int i = 0; i < 2000 && !__atomic_load_n(&o.done, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	int done = __atomic_load_n(&o.done, __ATOMIC_ACQUIRE);
	pmon_registry_unlock(&m->sessions);
	pthread_join(t, NULL);
	CHECK(done, "100 reads finished while another thread held the sessions' lock");
	CHECK_EQ_INT(o.failed, 0, "and succeeded");
}

/* A wrapper of the backend that, once armed, has another thread fold every
 * session right after the armed thread's next batch has read its counters,
 * and waits (2 s at most: a read holding the sessions' lock would wait for
 * ever) until the fold is done. */
static struct {
	struct pmon_access a, *inner;
	struct pmon_access_ops ops;
	int armed, folded;
	pthread_t who, folder;
} spy;

static void *fold_now(void *arg)
{
	(void)arg;
	pmon_sim_advance_ns(sim, 1000);
	pmon_sessions_fold(m);
	__atomic_store_n(&spy.folded, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int spy_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
		     uint64_t *at_ns, char *why, size_t whylen)
{
	(void)a;
	int rc = spy.inner->ops->read_batch(spy.inner, req, n, bad, at_ns, why, whylen);
	if (spy.armed && pthread_equal(pthread_self(), spy.who)) {
		spy.armed = 0;
		if (pthread_create(&spy.folder, NULL, fold_now, NULL) == 0)
			for (int i = 0; i < 2000 && !__atomic_load_n(&spy.folded, __ATOMIC_ACQUIRE); i++)
				usleep(1000);
	}
	return rc;
}

static void fold_inside_read(pmon_session_t *s, uint64_t t0)
{
	uint64_t v[3];
	spy.inner = m->acc;
	spy.ops = *m->acc->ops;
	spy.ops.read_batch = spy_batch;
	spy.a.ops = &spy.ops;
	spy.a.priv = m->acc->priv;
	m->acc = &spy.a;
	spy.who = pthread_self();
	spy.armed = 1;
	int fold_in_time = 0;
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	if (!spy.armed) {
		fold_in_time = __atomic_load_n(&spy.folded, __ATOMIC_ACQUIRE);
		pthread_join(spy.folder, NULL);
	}
	CHECK(fold_in_time, "the fold came between the read's counters and its totals");
	uint64_t elapsed = pmon_sim_now_ns(sim) - t0;
	CHECK_EQ_U64(v[0], elapsed, "that read: exact QPI clockticks (made again under the lock)");
	CHECK_EQ_U64(v[2], span_uclk(sim, t0 + elapsed) - span_uclk(sim, t0), "and exact CBo clockticks");
	m->acc = spy.inner;
}

static int add(pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_machine_encode(m, name, &e, err, sizeof(err));
	if (rc == PMON_OK && (rc = pmon_session_add(s, &e)))
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

int main(void)
{
	pmon_session_t *s;
	pthread_t t;
	uint64_t v[3], prev = 0, reads = 0, bad_equal = 0, bad_range = 0, bad_cbo = 0;

	setenv("PMON_SIM", "clock=manual", 1);
	CHECK_EQ_INT(pmon_machine_open(&m, "sim", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_read_unlocked");
	sim = pmon_sim_current();
	CHECK_EQ_U64(pmon_sim_shape(sim)->qclk_hz, 1000000000u, "QPI clock 1 GHz");
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(add(s, "snbep_unc_qpi0::UNC_Q_CLOCKTICKS:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_qpi0::UNC_Q_CLOCKTICKS:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0"), PMON_OK, err);
	CHECK(pmon_session_counter(s, 0) != pmon_session_counter(s, 1), "two QPI counters");
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);

	/* alone first: exact */
	pmon_sim_advance_ns(sim, 12345);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], 12345, "QPI clockticks after 12345 ns");
	CHECK_EQ_U64(v[2], span_uclk(sim, t0 + 12345) - span_uclk(sim, t0), "CBo clockticks after 12345 ns");
	reads_while_locked(s);
	fold_inside_read(s, t0);
	uint64_t t1 = pmon_sim_now_ns(sim) - t0;

	CHECK_EQ_INT(pthread_create(&t, NULL, mover, m), 0, "thread");
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (pmon_session_read(s, v) != PMON_OK) {
			CHECK(0, "read %llu failed: %s", (unsigned long long)reads, pmon_session_errmsg(s));
			break;
		}
		uint64_t now = pmon_sim_now_ns(sim) - t0;
		reads++;
		bad_equal += v[0] != v[1];
		bad_range += v[0] < prev || v[0] > now;
		/* the CBo count of the instant the QPI count gives */
		bad_cbo += v[2] != span_uclk(sim, t0 + v[0]) - span_uclk(sim, t0);
		prev = v[0];
	}
	pthread_join(t, NULL);
	CHECK(reads > 0, "the owner read while the other thread ran (%llu reads)",
	      (unsigned long long)reads);
	CHECK_EQ_U64(bad_equal, 0, "the two QPI counters of one block equal at every read");
	CHECK_EQ_U64(bad_range, 0, "every read between the last one and now");
	CHECK_EQ_U64(bad_cbo, 0, "the CBo count of the same instant at every read");

	uint64_t elapsed = pmon_sim_now_ns(sim) - t0;
	CHECK_EQ_U64(elapsed, t1 + (uint64_t)STEPS * STEP, "time moved by the steps only");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], elapsed, "QPI clockticks exact at the end");
	CHECK_EQ_U64(v[1], elapsed, "the second QPI counter too");
	CHECK_EQ_U64(v[2], span_uclk(sim, t0 + elapsed) - span_uclk(sim, t0), "CBo clockticks exact at the end");
	batches(s);
	elapsed = pmon_sim_now_ns(sim) - t0;
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	CHECK_EQ_U64(v[0], elapsed, "stop: the same after the batches");
	CHECK_EQ_U64(v[2], span_uclk(sim, t0 + elapsed) - span_uclk(sim, t0), "CBo too");
	pmon_session_destroy(s);
	pmon_machine_close(m);
	return check_done("test_read_unlocked");
}
