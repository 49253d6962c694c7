/* test_reason_threads.c - a failed register access reports its reason to its
 * own caller: two sessions reading in two threads, each failing on its own
 * PCI function, each get the reason that names their function, never the
 * other's (the reason is returned through the call, not kept in the shared
 * backend).  On fake device files: both sessions run, then both iMC
 * functions' config files are cut to their 64-byte header, as an
 * unprivileged reader sees them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

#define ROUNDS 2000

struct reader {
	pmon_session_t *s;
	const char *mine, *other;     /* the functions' addresses */
	int failed, named_mine, named_other;
	char first_bad[512];
};

static void *read_loop(void *arg)
{
	struct reader *r = arg;
	uint64_t v[1];
	for (int i = 0; i < ROUNDS; i++) {
		if (pmon_session_read(r->s, v) == PMON_OK)
			continue;
		const char *msg = pmon_session_errmsg(r->s);
		r->failed++;
		if (strstr(msg, r->mine))
			r->named_mine++;
		if (strstr(msg, r->other)) {
			if (!r->named_other++)
				snprintf(r->first_bad, sizeof(r->first_bad), "%s", msg);
		}
	}
	return NULL;
}

static void cut_to_header(const struct fake_world *w, unsigned bus, unsigned func)
{
	char path[1100];
	fake_pci_dir(path, sizeof(path), w->sysfs, 0, bus, 16, func);
	strcat(path, "/config");
	CHECK_EQ_INT(truncate(path, 64), 0, "config file cut to 64 bytes");
}

int main(void)
{
	char base[256], err[512];
	struct fake_world w;
	pmon_machine_t *m = NULL;
	pmon_session_t *s[2];
	pmon_encoding_t e;
	static const char *const names[2] = {
		"snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0",
		"snbep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=1",
	};
	struct reader r[2] = {
		{ .mine = "0000:3f:10.1", .other = "0000:7f:10.1" },
		{ .mine = "0000:7f:10.1", .other = "0000:3f:10.1" },
	};

	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "could not build the fake device files");
		return check_done("test_reason_threads");
	}
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", err, sizeof(err)), PMON_OK, err);
	if (!m)
		return check_done("test_reason_threads");
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(pmon_session_create(m, &s[i]), PMON_OK, "session");
		CHECK_EQ_INT(pmon_machine_encode(m, names[i], &e, err, sizeof(err)), PMON_OK, err);
		CHECK_EQ_INT(pmon_session_add(s[i], &e), PMON_OK, pmon_session_errmsg(s[i]));
		CHECK_EQ_INT(pmon_session_start(s[i]), PMON_OK, pmon_session_errmsg(s[i]));
		r[i].s = s[i];
	}
	cut_to_header(&w, 0x3f, 1);
	cut_to_header(&w, 0x7f, 1);

	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		CHECK_EQ_INT(pthread_create(&t[i], NULL, read_loop, &r[i]), 0, "thread");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(r[i].failed, ROUNDS, "every read fails (the counters are past the header)");
		CHECK_EQ_INT(r[i].named_mine, ROUNDS, "every reason names the session's own function");
		CHECK(r[i].named_other == 0, "%d reasons named the other session's function, first: %s",
		      r[i].named_other, r[i].first_bad);
	}
	const char *msg = pmon_session_errmsg(s[0]);
	CHECK(strstr(msg, "beyond the header") && strstr(msg, "snbep_unc_imc1"),
	      "the reason says what failed: %s", msg);
	for (int i = 0; i < 2; i++)
		pmon_session_destroy(s[i]);
	pmon_machine_close(m);
	fake_rmtree(base);
	return check_done("test_reason_threads");
}
