/*
 * test_stop_span.c - the window pmon_session_read_ns gives (its value after
 * the start to its value after the stop) against what the counters counted,
 * when the process is held up during the stop, on the emulated Nehalem-EP
 * (PMON_SIM=gen=nhm-ep,clock=manual,noise=250M: the noise trickle issues
 * socket 0's lines as emulated time moves, half of them DRAM reads).
 *
 * The window should be the interval the counters counted: the uncore's
 * fixed counter's UCLK ticks exactly, the memory controller's reads the
 * noise's rate.  A pause of PAUSE_NS (the process preempted) right after
 * the stop's first write (in the old order the freeze or the disabling
 * write of 0x391, before the final read: the window grew by the pause with
 * nothing counted; now after the final read) or right after the start's
 * first look at the clock (the old order's window stamp, before SNB-EP's
 * unfreeze) must not part the window from the counts.
 *
 * Also the same with every register access of the session taking STEP_NS
 * (as test_start_span.c does for SNB-EP's writes), on one socket and on two.
 *
 * This reproduces `pmon stat -M mem_bw` on gen=nhm-ep,load=250M coming out
 * 3.4 % low under make -j2 check: ~8 ms of machine time counted in the
 * window with no lines counted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "sim_span.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "machine.h"
#include "access.h"

#define PAUSE_NS 8000000u
#define STEP_NS 1000000u
#define NOISE_BPS 250000000u

static pmon_machine_t *m;
static pmon_sim_t *sim;
static char err[512];

static struct {
	struct pmon_access a, *inner;
	struct pmon_access_ops ops;
	uint64_t step;           /* before every access */
	int pause_after_write;   /* PAUSE_NS after the next write (the stop's first) */
	int pause_after_clock;   /* PAUSE_NS after the next clock_ns (the start's began) */
} slow;

static void before(void)
{
	if (slow.step)
		pmon_sim_advance_ns(sim, slow.step);
}

static int w_msr_read(struct pmon_access *a, int cpu, uint32_t msr, uint64_t *val, char *why,
		      size_t whylen)
{
	(void)a;
	before();
	return slow.inner->ops->msr_read(slow.inner, cpu, msr, val, why, whylen);
}

static int w_msr_write(struct pmon_access *a, int cpu, uint32_t msr, uint64_t val, char *why,
		       size_t whylen)
{
	(void)a;
	before();
	int rc = slow.inner->ops->msr_write(slow.inner, cpu, msr, val, why, whylen);
	if (slow.pause_after_write) {
		slow.pause_after_write = 0;
		pmon_sim_advance_ns(sim, PAUSE_NS);    /* preempted here */
	}
	return rc;
}

static uint64_t w_clock_ns(struct pmon_access *a)
{
	(void)a;
	uint64_t t = slow.inner->ops->clock_ns(slow.inner);
	if (slow.pause_after_clock) {
		slow.pause_after_clock = 0;
		pmon_sim_advance_ns(sim, PAUSE_NS);    /* preempted here */
	}
	return t;
}

static int w_read_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
			uint64_t *at_ns, char *why, size_t whylen)
{
	(void)a;
	before();
	return slow.inner->ops->read_batch(slow.inner, req, n, bad, at_ns, why, whylen);
}

static int w_pci_read(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		      char *why, size_t whylen)
{
	(void)a;
	before();
	return slow.inner->ops->pci_read(slow.inner, d, off, val, why, whylen);
}

static int w_pci_write(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t val,
		       char *why, size_t whylen)
{
	(void)a;
	before();
	int rc = slow.inner->ops->pci_write(slow.inner, d, off, val, why, whylen);
	if (slow.pause_after_write) {
		slow.pause_after_write = 0;
		pmon_sim_advance_ns(sim, PAUSE_NS);    /* preempted here */
	}
	return rc;
}

static int w_pci_read_block(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			    int ndw, char *why, size_t whylen)
{
	(void)a;
	before();
	return slow.inner->ops->pci_read_block(slow.inner, d, off, val, ndw, why, whylen);
}

/* The machine's events: a clock on socket 0 (UCLK, frozen or gated with
 * the session's other boxes), another on socket 1, and the DRAM reads of
 * socket 0 (NULL: none; on SNB-EP they spread over four IMC boxes). */
struct gen {
	const char *name, *shape, *clk0, *clk1, *reads;
};

static const struct gen nhm = { "nhm-ep", "gen=nhm-ep,clock=manual,prefetch=off,noise=250M",
				"nhm_unc::UNC_CLK_UNHALTED:socket=0",
				"nhm_unc::UNC_CLK_UNHALTED:socket=1",
				"nhm_unc::UNC_QMC_NORMAL_READS:ANY:socket=0" };
static const struct gen snb = { "snb-ep", "clock=manual,prefetch=off,noise=250M",
				"snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
				"snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=1", NULL };

enum pause { NONE, AT_STOP, AT_START };

/* One count of 0.2 s of emulated time (the command) with g's events (the
 * socket 1 clock when two), every register access taking step, a pause of
 * PAUSE_NS where asked: right after the stop's first write (the first
 * freeze or disable) or right after the start's stamp of its window (on
 * SNB-EP before the unfreeze).  The socket 0 clock's ticks against the
 * window, and the read rate against the noise's loads. */
static void span(const struct gen *g, const char *what, uint64_t step, enum pause pause, int two)
{
	pmon_session_t *s;
	uint64_t v[3] = { 0 };
	int ir = two ? 2 : 1;
	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	span_add(m, s, g->clk0);
	if (two)
		span_add(m, s, g->clk1);
	if (g->reads)
		span_add(m, s, g->reads);
	slow.step = step;
	slow.pause_after_clock = pause == AT_START;
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	slow.pause_after_clock = 0;
	uint64_t t0 = pmon_session_read_ns(s);
	pmon_sim_advance_ns(sim, 200000000u);     /* the command: 0.2 s */
	slow.pause_after_write = pause == AT_STOP;
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, pmon_session_errmsg(s));
	slow.step = 0;
	slow.pause_after_write = 0;
	uint64_t t1 = pmon_session_read_ns(s), want = span_uclk(sim, t1) - span_uclk(sim, t0);
	double win = (double)(t1 - t0) * 1e-9, clk_s = (double)v[0] / (double)pmon_sim_shape(sim)->uclk_hz;
	printf("%s, %s: window %.6f s, S0 clock %.6f s (%+.3f ms)", g->name, what, win, clk_s,
	       (clk_s - win) * 1e3);
	CHECK(v[0] == want, "%s, %s: S0 clock ticks %llu, the window's %llu (%+.3f ms)", g->name, what,
	      (unsigned long long)v[0], (unsigned long long)want, (clk_s - win) * 1e3);
	if (two)
		CHECK(v[1] == want, "%s, %s: S1 clock ticks %llu, the window's %llu (%+.3f ms)", g->name,
		      what, (unsigned long long)v[1], (unsigned long long)want,
		      ((double)v[1] / (double)pmon_sim_shape(sim)->uclk_hz - win) * 1e3);
	if (g->reads) {
		double rate = (double)v[ir] * 64 / win;
		printf(", S0 reads %.4g B/s (%+.2f %%)", rate, 100 * (rate / (NOISE_BPS / 2) - 1));
		CHECK(rate > 0.995 * NOISE_BPS / 2 && rate < 1.005 * NOISE_BPS / 2,
		      "%s, %s: S0 DRAM reads %.5g B/s, the noise's loads %u B/s within 0.5 %%", g->name,
		      what, rate, NOISE_BPS / 2);
	}
	printf("\n");
	pmon_session_destroy(s);
}

static void gen_spans(const struct gen *g)
{
	setenv("PMON_SIM", g->shape, 1);
	int rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return;
	sim = pmon_sim_current();
	slow.inner = m->acc;
	slow.ops = *m->acc->ops;
	slow.ops.msr_read = w_msr_read;
	slow.ops.msr_write = w_msr_write;
	slow.ops.read_batch = slow.inner->ops->read_batch ? w_read_batch : NULL;
	slow.ops.pci_read = w_pci_read;
	slow.ops.pci_write = w_pci_write;
	slow.ops.pci_read_block = w_pci_read_block;
	slow.ops.clock_ns = w_clock_ns;
	slow.a.ops = &slow.ops;
	slow.a.priv = m->acc->priv;
	m->acc = &slow.a;

	span(g, "no delay", 0, NONE, 0);
	span(g, "8 ms pause after the stop's first write", 0, AT_STOP, 0);
	span(g, "8 ms pause after the start's first clock look", 0, AT_START, 0);
	span(g, "1 ms every access, one socket", STEP_NS, NONE, 0);
	span(g, "1 ms every access, two sockets", STEP_NS, NONE, 1);

	m->acc = slow.inner;
	pmon_machine_close(m);
}

/* One machine a process (the emulated machine is the process's own): the
 * Nehalem-EP in a child, SNB-EP here. */
int main(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		gen_spans(&nhm);
		exit(check_done("test_stop_span nhm-ep"));
	}
	int ws = 0;
	CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
	      "the nhm-ep half passed");
	gen_spans(&snb);
	return check_done("test_stop_span");
}
