/* test_session_sim.c - counting sessions on the emulated machine: exact counts
 * under driven time and traffic, reset, 48-bit wrap into exact 64-bit totals,
 * the programming sequence, restore on stop, and bad input that writes
 * nothing. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pmon/pmon.h"
#include "pmon/sim.h"
#include "access.h"

/* The reason a register access gives when it fails. */
static char op_why[256];

static pmon_machine_t *m;
static char err[512];

static int add(pmon_session_t *s, const char *name)
{
	pmon_encoding_t e;
	int rc = pmon_machine_encode(m, name, &e, err, sizeof(err));
	if (rc)
		return rc;
	rc = pmon_session_add(s, &e);
	if (rc)
		snprintf(err, sizeof(err), "%s", pmon_session_errmsg(s));
	return rc;
}

/* DCLK ticks the emulator counts after ns nanoseconds at 800 MHz */
static uint64_t dclk(uint64_t ns) { return (uint64_t)((unsigned __int128)ns * 800000000u / 1000000000u); }

static void all_accesses_ok(pmon_sim_t *sim, size_t from, const char *what)
{
	size_t bad = 0, n = pmon_sim_log_count(sim);
	for (size_t i = from; i < n; i++)
		if (pmon_sim_log_get(sim, i)->status != 0)
			bad++;
	CHECK(bad == 0, "%s: %zu register accesses were refused by the emulator", what, bad);
}

static void counts_under_traffic(pmon_sim_t *sim)
{
	pmon_session_t *s;
	uint64_t v[8];
	struct pmon_sim_truth t0[4], t1[4];

	CHECK_EQ_INT(pmon_session_create(m, &s), PMON_OK, "session");
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_CLOCKTICKS:socket=0"), PMON_OK, err);
	for (int c = 0; c < 4; c++) {
		char name[128];
		snprintf(name, sizeof(name), "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD:socket=0", c);
		CHECK_EQ_INT(add(s, name), PMON_OK, err);
	}
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_CAS_COUNT:WR:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_ACT_COUNT:socket=0"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_counter(s, 0), -1, "DCLK on the fixed counter");

	size_t log0 = pmon_sim_log_count(sim);
	for (int c = 0; c < 4; c++)
		pmon_sim_channel_truth(sim, 0, c, &t0[c]);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));

	pmon_sim_advance_ns(sim, 1000000);
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 4096), 0, "loads");
	CHECK_EQ_INT(pmon_sim_traffic(sim, 1, 1 << 20, PMON_SIM_STORE, 1000), 0, "stores");
	/* the stores' lines are Modified in the caches: the flush writes them */
	CHECK_EQ_INT(pmon_sim_flush_caches(sim), 0, "flush");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, pmon_session_errmsg(s));
	for (int c = 0; c < 4; c++)
		pmon_sim_channel_truth(sim, 0, c, &t1[c]);
	CHECK_EQ_U64(v[0], dclk(1000000), "DCLK after 1 ms");
	uint64_t sum = 0;
	for (int c = 0; c < 4; c++) {
		CHECK_EQ_U64(v[1 + c], t1[c].cas_rd - t0[c].cas_rd, "CAS RD per channel = truth");
		sum += v[1 + c];
	}
	/* every line is read once: the loads, and the stores' reads for
	 * ownership (a store miss reads the line first) */
	CHECK_EQ_U64(sum, 4096 + 1000, "CAS RD over the 4 channels = lines loaded + stored");
	CHECK_EQ_U64(v[5], t1[0].cas_wr - t0[0].cas_wr, "CAS WR channel 0 = truth");
	CHECK(v[5] > 0, "stores reached channel 0 (%llu)", (unsigned long long)v[5]);
	CHECK_EQ_U64(v[6], t1[0].act - t0[0].act, "ACT channel 0 = truth");

	/* reset: totals restart from zero, counting continues */
	CHECK_EQ_INT(pmon_session_reset(s), PMON_OK, "reset");
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, "read after reset");
	for (int i = 0; i < 7; i++)
		CHECK_EQ_U64(v[i], 0, "zero after reset");
	pmon_sim_advance_ns(sim, 5000);
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 8 << 20, PMON_SIM_LOAD, 64), 0, "more loads");
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	uint64_t t_ns = 1000000;
	CHECK_EQ_U64(v[0], dclk(t_ns + 5000) - dclk(t_ns), "DCLK since reset");
	CHECK_EQ_U64(v[1] + v[2] + v[3] + v[4], 64, "CAS RD since reset");

	/* after stop the counters no longer move */
	pmon_sim_advance_ns(sim, 1000000);
	uint64_t v2[8];
	CHECK_EQ_INT(pmon_session_read(s, v2), PMON_OK, "read when stopped");
	CHECK_EQ_U64(v2[0], v[0], "stopped total unchanged");
	all_accesses_ok(sim, log0, "traffic session");
	pmon_session_destroy(s);
}

/* The DCLK counter is 48 bits wide: drive it across the wrap. */
static void wrap_48(pmon_sim_t *sim)
{
	pmon_session_t *s;
	uint64_t v[1];
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add(s, "snbep_unc_imc1::UNC_M_CLOCKTICKS:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);
	uint64_t step = (1ull << 48) / 4 * 5 - 1000000;   /* just short of 2^48 ticks */
	pmon_sim_advance_ns(sim, step);
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, "read before wrap");
	CHECK_EQ_U64(v[0], dclk(t0 + step) - dclk(t0), "total before wrap");
	pmon_sim_advance_ns(sim, 3000000);                 /* crosses 2^48 */
	CHECK_EQ_INT(pmon_session_read(s, v), PMON_OK, "read after wrap");
	uint64_t want = dclk(t0 + step + 3000000) - dclk(t0);
	CHECK(want > (1ull << 48), "the test really crosses 2^48 (%llu)", (unsigned long long)want);
	CHECK_EQ_U64(v[0], want, "exact 64-bit total across the 48-bit wrap");
	pmon_sim_advance_ns(sim, step);                    /* a second wrap */
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	CHECK_EQ_U64(v[0], dclk(t0 + 2 * step + 3000000) - dclk(t0), "total after two wraps");
	pmon_session_destroy(s);
}

/* Programming touches only the PMON registers and leaves them as found. */
static void restore(pmon_sim_t *sim)
{
	struct pmon_access *a;
	pmon_session_t *s;
	uint64_t before[4], after[4];
	int bus = pmon_sim_socket_bus(sim, 0);
	pmon_pci_addr_t imc0 = { 0, (uint8_t)bus, 16, 0 };

	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof(err)), PMON_OK, err);
	/* another agent left values in CTL2 and CTL3 */
	a->ops->pci_write(a, imc0, 0xe0, 0x0101, op_why, sizeof op_why);
	a->ops->pci_write(a, imc0, 0xe4, 0x0202, op_why, sizeof op_why);
	for (int i = 0; i < 4; i++) {
		uint32_t x;
		a->ops->pci_read(a, imc0, 0xd8 + 4 * i, &x, op_why, sizeof op_why);
		before[i] = x;
	}
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_CAS_COUNT:WR"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_ACT_COUNT"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_imc0::UNC_M_PRE_COUNT:PAGE_MISS"), PMON_OK, err);
	size_t log0 = pmon_sim_log_count(sim);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	/* while counting, CTL0 holds CAS RD with the enable bit */
	uint32_t x;
	a->ops->pci_read(a, imc0, 0xd8 + 4 * pmon_session_counter(s, 0), &x, op_why, sizeof op_why);
	CHECK_EQ_U64(x, 0x400304, "CTL of CAS RD while counting");
	/* the box was frozen first, then released with only frz_en */
	int saw_freeze = 0, last_box = -1;
	for (size_t i = log0; i < pmon_sim_log_count(sim); i++) {
		const struct pmon_sim_log_entry *le = pmon_sim_log_get(sim, i);
		if (le->op == PMON_SIM_PCI_WRITE && le->bus == bus && le->dev == 16 && le->func == 0 &&
		    le->off == 0xf4) {
			if (le->value == 0x10100 && last_box < 0)
				saw_freeze = 1;
			last_box = (int)le->value;
		}
	}
	CHECK(saw_freeze, "box frozen (0x10100) before programming");
	CHECK_EQ_INT(last_box, 0x10000, "box released with frz_en only");
	CHECK_EQ_INT(pmon_session_stop(s, NULL), PMON_OK, "stop");
	for (int i = 0; i < 4; i++) {
		a->ops->pci_read(a, imc0, 0xd8 + 4 * i, &x, op_why, sizeof op_why);
		after[i] = x;
		CHECK_EQ_U64(after[i], before[i], "CTL restored after stop");
	}
	all_accesses_ok(sim, log0, "restore session");
	pmon_session_destroy(s);
	a->ops->pci_write(a, imc0, 0xe0, 0, op_why, sizeof op_why);
	a->ops->pci_write(a, imc0, 0xe4, 0, op_why, sizeof op_why);
	a->ops->close(a);
}

/* Bad input is refused with a clear message and writes no register. */
static void refusals(pmon_sim_t *sim)
{
	pmon_session_t *s;
	pmon_encoding_t e;
	size_t w0 = pmon_sim_log_writes(sim);

	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=9", &e, err,
					 sizeof(err)), PMON_ERANGE, "socket=9");
	CHECK(strstr(err, "2 sockets") != NULL, "message names the socket count: %s", err);
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RDX", &e, err,
					 sizeof(err)), PMON_EUMASK, "bad umask");
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_POWER_CKE_CYCLES:RANK0", &e, err,
					 sizeof(err)), PMON_ENOTMODELED, "unmodeled event");
	CHECK(strstr(err, "not modeled") != NULL, "message says not modeled: %s", err);
	/* The same question for an encoding changed after encoding: CAS_COUNT
	 * (event 0x04) is modeled, with event code 0x05 it is not. */
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(pmon_machine_event_modeled(m, &e, err, sizeof(err)), PMON_OK, "CAS_COUNT modeled");
	e.ctl ^= 0x01;
	CHECK_EQ_INT(pmon_machine_event_modeled(m, &e, err, sizeof(err)), PMON_ENOTMODELED,
		     "CAS_COUNT with event code 0x05");
	CHECK(strstr(err, "UNC_M_CAS_COUNT:RD") && strstr(err, "not modeled"),
	      "the refusal names the event: %s", err);
	e.pmu = -1;
	CHECK_EQ_INT(pmon_machine_event_modeled(m, &e, err, sizeof(err)), PMON_EINVAL, "no such PMU");
	/* an uncore event named by CPU lands on that CPU's socket */
	CHECK_EQ_INT(pmon_machine_encode(m, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=8", &e, err,
					 sizeof(err)), PMON_OK, err);
	CHECK_EQ_INT(e.socket, pmon_machine_cpu_socket(m, 8), "cpu=8 -> its socket");

	/* five general events on a four-counter box */
	pmon_session_create(m, &s);
	const char *five[] = { "UNC_M_CAS_COUNT:RD", "UNC_M_CAS_COUNT:WR", "UNC_M_ACT_COUNT",
			       "UNC_M_PRE_COUNT:PAGE_MISS", "UNC_M_RPQ_INSERTS" };
	for (int i = 0; i < 5; i++) {
		char name[128];
		snprintf(name, sizeof(name), "snbep_unc_imc2::%s", five[i]);
		int rc = add(s, name);
		CHECK_EQ_INT(rc, i < 4 ? PMON_OK : PMON_ECONFLICT, name);
	}
	CHECK(strstr(err, "4 counters") != NULL, "conflict message names the counters: %s", err);
	CHECK_EQ_INT(pmon_session_count(s), 4, "the refused event is not kept");
	/* two events on one fixed counter */
	pmon_session_clear(s);
	CHECK_EQ_INT(add(s, "snbep_unc_ubo::UNC_U_CLOCKTICKS"), PMON_OK, err);
	CHECK_EQ_INT(add(s, "snbep_unc_ubo::UNC_U_CLOCKTICKS"), PMON_ECONFLICT, "fixed twice");
	pmon_session_destroy(s);
	CHECK_EQ_U64(pmon_sim_log_writes(sim), w0, "no register written by refused input");
}

static void ubox_fixed(pmon_sim_t *sim)
{
	pmon_session_t *s;
	uint64_t v[1];
	const struct pmon_sim_shape *sh = pmon_sim_shape(sim);
	pmon_session_create(m, &s);
	CHECK_EQ_INT(add(s, "snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=1"), PMON_OK, err);
	CHECK_EQ_INT(pmon_session_start(s), PMON_OK, pmon_session_errmsg(s));
	uint64_t t0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, 2000000);
	CHECK_EQ_INT(pmon_session_stop(s, v), PMON_OK, "stop");
	uint64_t want = (uint64_t)((unsigned __int128)(t0 + 2000000) * sh->uclk_hz / 1000000000u) -
			(uint64_t)((unsigned __int128)t0 * sh->uclk_hz / 1000000000u);
	CHECK_EQ_U64(v[0], want, "UCLK over 2 ms");
	pmon_session_destroy(s);
}

int main(void)
{
	setenv("PMON_SIM", "clock=manual,prefetch=off", 1);    /* exact demand traffic */
	int rc = pmon_machine_open(&m, "sim", err, sizeof(err));
	CHECK_EQ_INT(rc, PMON_OK, err);
	if (rc)
		return check_done("test_session_sim");
	pmon_sim_t *sim = pmon_sim_current();
	CHECK(sim != NULL, "the machine opened the process's emulated machine");
	pmon_sim_log_set_cap(sim, 1u << 16);   /* the checks read the access log */
	CHECK_EQ_INT(pmon_machine_nsockets(m), 2, "sockets");
	CHECK_EQ_INT(pmon_machine_ncpus(m), 32, "cpus");
	CHECK_EQ_INT(strcmp(pmon_machine_backend(m), "sim"), 0, "backend name");
	counts_under_traffic(sim);
	wrap_48(sim);
	restore(sim);
	refusals(sim);
	ubox_fixed(sim);
	pmon_machine_close(m);
	return check_done("test_session_sim");
}
