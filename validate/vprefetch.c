/*
 * vprefetch.c - read, switch off and restore the prefetchers (vprefetch.h).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <pmon/platform.h>

#include "vprefetch.h"

int vpf_read(struct vpf *p, pmon_machine_t *m, int hw, const int *cpus, int n)
{
	int got = 0;
	memset(p, 0, sizeof(*p));
	p->m = m;
	p->hw = hw;
	p->n = n < VPF_MAX ? n : VPF_MAX;
	for (int i = 0; i < p->n; i++) {
		p->cpu[i] = cpus[i];
		p->ok[i] = pmon_machine_platform_read(m, cpus[i], PMON_MSR_MISC_FEATURE_CTL,
						      &p->found[i], p->why[i], sizeof(p->why[i])) == 0;
		got += p->ok[i];
	}
	return got;
}

/* Put back the bits of the CPUs changed; why NULL in a signal handler
 * (nothing formatted).  The number that could not be restored. */
static int put_back(struct vpf *p, char *why, size_t len)
{
	int bad = 0;
	for (int i = 0; i < p->n; i++) {
		char one[160];
		if (!p->set[i])
			continue;
		if (pmon_machine_prefetch_write(p->m, p->cpu[i], (unsigned)(p->found[i] & PMON_PF_ALL),
						why ? one : NULL, why ? sizeof(one) : 0) == 0) {
			p->set[i] = 0;
			continue;
		}
		bad++;
		if (why) {
			size_t l = strlen(why);
			snprintf(why + l, len - l, "%sCPU %d: %s", l ? "; " : "", p->cpu[i], one);
		}
	}
	return bad;
}

/* Every CPU of the machine not yet in the list, read and appended: the
 * kernels' remote CPUs (share, numa, pfreq) and every other. */
static int add_machine(struct vpf *p, char *why, size_t len)
{
	int ncpus = pmon_machine_ncpus(p->m);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int have = pmon_machine_cpu_socket(p->m, cpu) < 0;
		for (int i = 0; i < p->n && !have; i++)
			have = p->cpu[i] == cpu;
		if (have)
			continue;
		if (p->n == VPF_MAX) {
			snprintf(why, len, "--prefetch=off: the machine has more than %d CPUs: the "
				 "prefetchers of CPU %d on cannot be switched off", VPF_MAX, cpu);
			return -1;
		}
		int i = p->n++;
		p->cpu[i] = cpu;
		p->set[i] = 0;
		p->ok[i] = pmon_machine_platform_read(p->m, cpu, PMON_MSR_MISC_FEATURE_CTL, &p->found[i],
						      p->why[i], sizeof(p->why[i])) == 0;
	}
	return 0;
}

int vpf_off(struct vpf *p, char *why, size_t len)
{
	if (add_machine(p, why, len) != 0)
		return -1;
	for (int i = 0; i < p->n; i++) {
		char one[160];
		if (!p->ok[i]) {
			snprintf(why, len, "--prefetch=off: MSR 0x1A4 of CPU %d cannot be read: %s",
				 p->cpu[i], p->why[i]);
			goto undo;
		}
		p->off = 1;
		if (pmon_machine_prefetch_write(p->m, p->cpu[i], PMON_PF_ALL, one, sizeof(one)) != 0) {
			snprintf(why, len, "--prefetch=off: CPU %d: %s", p->cpu[i], one);
			goto undo;
		}
		p->set[i] = (p->found[i] & PMON_PF_ALL) != PMON_PF_ALL;
	}
	return 0;
undo:
	{
		char rest[256] = "";
		if (put_back(p, rest, sizeof(rest))) {
			size_t l = strlen(why);
			snprintf(why + l, len - l, "; NOT RESTORED: %s", rest);
		}
	}
	p->off = 0;
	return -1;
}

int vpf_restore(struct vpf *p, char *why, size_t len)
{
	if (why && len)
		why[0] = 0;
	if (!p->off)
		return 0;
	int bad = put_back(p, why, len);
	if (!bad)
		p->off = 0;
	return bad ? -1 : 0;
}

static struct vpf *sig_pf;

static void on_signal(int sig)
{
	if (sig_pf && sig_pf->off && sig_pf->hw)
		(void)put_back(sig_pf, NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

void vpf_restore_on_signals(struct vpf *p)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sig_pf = p;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
