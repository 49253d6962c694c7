/*
 * test_enabled_ctls.c - controls another agent (perf, PCM, another tool)
 * enabled are named, on fake device files: a start refused for them names
 * each one's box, register (MSR address, or PCI function + offset) and value
 * (the first four, then "and N more") and writes nothing;
 * pmon_machine_enabled_ctls lists them per socket with reads only; `pmon
 * info` shows them as warnings, and its --json lists them per socket;
 * pmon_enabled_ctls_text is the one wording of such a list.
 *
 * Addresses from Intel's SNB-EP uncore guide: CBo N's CTL0 is MSR
 * 0xd10 + 0x20 * N; iMC channel 1 is device 16 function 1, CTL0 at 0xd8.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

#define CBO_CTL0(n)  (0xd10u + 0x20u * (n))
#define AGENT_CTL    0x400834ull
#define IMC_CTL0     0xd8u          /* EN | umask 0x08 | event 0x34 */

/* Run cmd; its stdout (NUL-terminated, malloc'd) goes to out; the exit status. */
static int run(const char *cmd, char **out)
{
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 16, n = 0, r;
	char *buf = malloc(cap);
	*out = NULL;
	if (!f || !buf) {
		free(buf);
		if (f)
			pclose(f);
		return -1;
	}
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0)
		n += r;
	buf[n] = 0;
	*out = buf;
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Start a session of the given events; returns its code, message into msg. */
static int start(pmon_machine_t *m, const char **names, int n, char *msg, size_t len)
{
	pmon_session_t *s;
	char err[512];
	if (pmon_session_create(m, &s))
		return -1;
	for (int i = 0; i < n; i++) {
		pmon_encoding_t e;
		CHECK_EQ_INT(pmon_machine_encode(m, names[i], &e, err, sizeof(err)), PMON_OK, err);
		CHECK_EQ_INT(pmon_session_add(s, &e), PMON_OK, names[i]);
	}
	int rc = pmon_session_start(s);
	snprintf(msg, len, "%s", pmon_session_errmsg(s));
	if (rc == PMON_OK)
		pmon_session_stop(s, NULL);
	pmon_session_destroy(s);
	return rc;
}

static void tool_info(const char *want_reg)
{
	const char *tool = getenv("PMON_BIN") ? getenv("PMON_BIN") : "build/bin/pmon";
	char cmd[512], *out;
	snprintf(cmd, sizeof(cmd), "PMON_BACKEND=msr %s info", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "pmon info");
	const char *w = out ? strstr(out, "warnings:\n") : NULL;
	CHECK(w && strstr(w, "socket 1: 1 PMON control(s) enabled by another agent") &&
	      strstr(w, want_reg) && strstr(w, "= 0x400834"), "pmon info warns: %s", out ? out : "");
	CHECK(w && !strstr(w, "socket 0: "), "nothing on socket 0: %s", out ? out : "");
	free(out);

	snprintf(cmd, sizeof(cmd), "PMON_BACKEND=msr %s info --json", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "pmon info --json");
	json_t *doc = out ? json_loads(out, 0, NULL) : NULL;
	CHECK(doc != NULL, "info --json is JSON: %s", out ? out : "");
	free(out);
	json_t *socks = json_object_get(doc, "socket_list");
	CHECK_EQ_INT((int)json_array_size(socks), 2, "two sockets");
	json_t *e0 = json_object_get(json_array_get(socks, 0), "enabled_controls");
	json_t *e1 = json_object_get(json_array_get(socks, 1), "enabled_controls");
	CHECK(json_is_array(e0) && json_array_size(e0) == 0, "socket 0: none enabled");
	CHECK(json_is_array(e1) && json_array_size(e1) == 1, "socket 1: one enabled");
	json_t *c = json_array_get(e1, 0);
	const char *pmu = json_string_value(json_object_get(c, "pmu"));
	const char *reg = json_string_value(json_object_get(c, "register"));
	const char *val = json_string_value(json_object_get(c, "value"));
	CHECK(pmu && !strcmp(pmu, "snbep_unc_cbo1"), "pmu %s", pmu ? pmu : "(none)");
	CHECK(reg && !strcmp(reg, want_reg), "register %s", reg ? reg : "(none)");
	CHECK(val && !strcmp(val, "0x400834"), "value %s", val ? val : "(none)");
	const char *warn = json_string_value(json_object_get(doc, "warnings"));
	CHECK(warn && strstr(warn, want_reg), "json warnings name it: %s", warn ? warn : "(none)");
	json_decref(doc);
}

/* pmon_enabled_ctls_text: the first four as "register = 0xvalue" with "; "
 * between, then " and N more"; the text starts at buf[0]; a short buffer
 * ends in "..." (pmon_why_add). */
static void list_text(void)
{
	pmon_enabled_ctl_t c[6] = { { .reg = "A", .value = 1 }, { .reg = "B", .value = 2 },
				    { .reg = "C", .value = 3 }, { .reg = "D", .value = 0x400034 },
				    { .reg = "E", .value = 5 }, { .reg = "F", .value = 6 } };
	static const struct {
		int n;
		size_t len;
		const char *want;
	} t[] = {
		{ 0, 128, "" },
		{ 1, 128, "A = 0x1" },
		{ 4, 128, "A = 0x1; B = 0x2; C = 0x3; D = 0x400034" },
		{ 6, 128, "A = 0x1; B = 0x2; C = 0x3; D = 0x400034 and 2 more" },
		{ 41, 128, "A = 0x1; B = 0x2; C = 0x3; D = 0x400034 and 37 more" },
		{ 6, 16, "A = 0x1; B =..." },   /* 15 characters and the NUL */
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char buf[128] = "old text";
		pmon_enabled_ctls_text(buf, t[i].len, c, t[i].n);
		CHECK(!strcmp(buf, t[i].want), "%d in %zu bytes: \"%s\", want \"%s\"", t[i].n, t[i].len,
		      buf, t[i].want);
	}
}

int main(void)
{
	char base[128], err[512], msg[1024];
	struct fake_world w;
	pmon_machine_t *m;
	pmon_enabled_ctl_t found[8];
	list_text();
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_enabled_ctls");
	}
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_enabled_ctls");
	int cpu1 = pmon_machine_socket_cpu(m, 1);
	for (int s = 0; s < 2; s++)
		CHECK_EQ_INT(pmon_machine_enabled_ctls(m, s, found, 8, err, sizeof(err)), 0, "none enabled yet");
	CHECK_EQ_INT(pmon_machine_enabled_ctls(m, 2, found, 8, err, sizeof(err)), PMON_ERANGE, "socket 2");

	/* another agent counts on CBo1 CTL0 of socket 1 (the fake MSR file
	 * holds 8 bytes at each MSR's offset: neighbours overlap, so what must
	 * stay unwritten is the file's bytes, kept from before) */
	fake_msr_put(w.msr, cpu1, CBO_CTL0(1), AGENT_CTL);
	uint64_t before[5];
	for (int c = 0; c < 5; c++)
		before[c] = fake_msr_get(w.msr, cpu1, CBO_CTL0(1) - 1 + (uint32_t)c);
	const char *want = "snbep_unc_cbo1 socket 1 CTL0 (MSR 0xd30)";
	CHECK_EQ_INT(pmon_machine_enabled_ctls(m, 0, found, 8, err, sizeof(err)), 0, "socket 0");
	CHECK_EQ_INT(pmon_machine_enabled_ctls(m, 1, found, 8, err, sizeof(err)), 1, "socket 1");
	CHECK(!strcmp(found[0].reg, want), "named %s", found[0].reg);
	CHECK(found[0].value == AGENT_CTL, "value 0x%llx", (unsigned long long)found[0].value);

	/* TOR_OCCUPANCY counts on counter 0 only: refused, the register named */
	const char *tor = "snbep_unc_cbo1::UNC_C_TOR_OCCUPANCY:ALL:socket=1";
	CHECK_EQ_INT(start(m, &tor, 1, msg, sizeof(msg)), PMON_EBUSY, "counter 0 is taken");
	CHECK(strstr(msg, "snbep_unc_cbo1 socket 1 CTL0 (MSR 0xd30) = 0x400834"), "refusal names it: %s", msg);
	CHECK(!strstr(msg, "more"), "only one: %s", msg);
	CHECK(fake_msr_get(w.msr, cpu1, CBO_CTL0(1)) == AGENT_CTL, "the agent's control untouched");
	for (int c = 0; c < 5; c++)
		CHECK(fake_msr_get(w.msr, cpu1, CBO_CTL0(1) - 1 + (uint32_t)c) == before[c],
		      "MSR 0x%x not written", CBO_CTL0(1) - 1 + (uint32_t)c);
	tool_info(want);

	/* a PCI box: iMC channel 1's CTL0 on socket 1 (bus 0x7f) */
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0, 0x400001);
	CHECK_EQ_INT(pmon_machine_enabled_ctls(m, 1, found, 8, err, sizeof(err)), 2, "CBo1 and iMC1");
	int imc = !strncmp(found[0].reg, "snbep_unc_imc1", 14) ? 0 : 1;
	CHECK(!strcmp(found[imc].reg, "snbep_unc_imc1 socket 1 CTL0 (PCI 0000:7f:10.1 offset 0xd8)") &&
	      found[imc].value == 0x400001, "iMC1 named %s = 0x%llx", found[imc].reg,
	      (unsigned long long)found[imc].value);

	/* many enabled: all of iMC1's and iMC0's CTL0: the first four, then
	 * "and 1 more"; the list keeps the first max of the six */
	for (int c = 1; c < 4; c++)
		fake_pci_put(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0 + 4 * (uint32_t)c, 0x400001);
	fake_pci_put(w.sysfs, 0, 0x7f, 16, 0, IMC_CTL0, 0x400002);
	const char *two[] = { "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=1",
			      "snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1" };
	CHECK_EQ_INT(start(m, two, 2, msg, sizeof(msg)), PMON_EBUSY, "no free counter in iMC1");
	CHECK(strstr(msg, "snbep_unc_imc0 socket 1 CTL0 (PCI 0000:7f:10.0 offset 0xd8) = 0x400002") &&
	      strstr(msg, "snbep_unc_imc1 socket 1 CTL2 (PCI 0000:7f:10.1 offset 0xe0) = 0x400001") &&
	      strstr(msg, " and 1 more"), "first four, then the count: %s", msg);
	CHECK_EQ_INT(pmon_machine_enabled_ctls(m, 1, found, 2, err, sizeof(err)), 6, "six enabled");
	CHECK(strstr(found[0].reg, "snbep_unc_") && strstr(found[1].reg, "snbep_unc_"), "first two kept: %s, %s",
	      found[0].reg, found[1].reg);
	for (int c = 0; c < 4; c++)
		CHECK(fake_pci_get(w.sysfs, 0, 0x7f, 16, 1, IMC_CTL0 + 4 * (uint32_t)c) == 0x400001,
		      "iMC1 CTL%d read only", c);
	CHECK(fake_pci_get(w.sysfs, 0, 0x7f, 16, 0, IMC_CTL0) == 0x400002, "iMC0 CTL0 read only");
	pmon_machine_close(m);
	fake_rmtree(base);
	return check_done("test_enabled_ctls");
}
