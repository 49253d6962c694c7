/*
 * test_machine_counters.c - pmon_machine_counters(), the counters a machine
 * offers at once (papi_native_avail's counter count), worked out from each
 * emulated machine's documented shape and the guides' box descriptions:
 *   - SNB-EP (default shape: 2 sockets x 8 cores x 2 threads, 4 channels):
 *     per socket UBox 2 + UCLK, CBo 8 x 4, PCU 4, HA 4, iMC 4 x (4 + DCLK),
 *     QPI 2 x 4, R2PCIe 4, R3QPI 2 x 3; two RSP registers per logical CPU;
 *   - Nehalem-EP (2 sockets x 4 cores x 2 threads): one uncore PMU a socket,
 *     8 general counters + the fixed UCLK counter; one RSP register per
 *     core, its two hyperthreads sharing it (not one per CPU);
 *   - Westmere-EP (2 sockets x 6 cores x 2 threads): the same uncore; two
 *     RSP registers per core, shared by its hyperthreads.
 * And pmon_pmu_get's offcore_regs / offcore_per_core for the core PMUs.
 * Each machine in a process of its own (a process's catalogue is the
 * generation of the machine it opened).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pmon/pmon.h"

static void one(const char *shape, int want, const char *core_pmu, int regs, int per_core)
{
	pmon_machine_t *m = NULL;
	char why[512];
	setenv("PMON_SIM", shape, 1);
	int rc = pmon_machine_open(&m, "sim", why, sizeof(why));
	CHECK(rc == PMON_OK, "%s: open: %s", shape, why);
	if (rc)
		return;
	CHECK(pmon_machine_counters(m) == want, "%s: %d counters, want %d", shape,
	      pmon_machine_counters(m), want);
	pmon_pmu_info_t pi;
	int p = pmon_pmu_find(core_pmu);
	CHECK(p >= 0 && pmon_pmu_get(p, &pi) == PMON_OK, "%s: the core PMU %s", shape, core_pmu);
	if (p >= 0 && pmon_pmu_get(p, &pi) == PMON_OK)
		CHECK(pi.offcore_regs == regs && pi.offcore_per_core == per_core,
		      "%s: %s has %d RSP registers (per core %d), want %d (%d)", shape, core_pmu,
		      pi.offcore_regs, pi.offcore_per_core, regs, per_core);
	pmon_machine_close(m);
}

/* one() in a child: its checks' outcome as its exit status. */
static void apart(const char *shape, int want, const char *core_pmu, int regs, int per_core)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		check_passed = check_failed = 0;      /* the child's own outcome */
		one(shape, want, core_pmu, regs, per_core);
		fflush(stdout);
		_exit(check_failed ? 1 : 0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the child's checks (status 0x%x)",
	      shape, st);
}

int main(void)
{
	setenv("PMON_QUIET", "1", 1);
	int snbep = (2 + 1) + 8 * 4 + 4 + 4 + 4 * (4 + 1) + 2 * 4 + 4 + 2 * 3;
	apart("", 2 * snbep + 2 * 32, "snb_ep", 2, 0);
	apart("gen=nhm-ep", 2 * (8 + 1) + 1 * 8, "nhm", 1, 1);
	apart("gen=wsm-ep", 2 * (8 + 1) + 2 * 12, "wsm_dp", 2, 1);
	pmon_pmu_info_t pi;
	CHECK(pmon_pmu_get(pmon_pmu_find("snbep_unc_imc0"), &pi) == PMON_OK && pi.offcore_regs == 0 &&
	      pi.offcore_per_core == 0, "an uncore box has no RSP register");
	return check_done("test_machine_counters");
}
