/*
 * test_journal_fuzz.c - a fuzz target for the journal's parser and for
 * `pmon reset` reading a hostile journal, as a self-contained mutation loop
 * (xorshift.h, fixed seed: a failure replays) bounded by time and by
 * iterations, so that `make check` and `make check-asan` (ASan + UBSan)
 * run it for a fixed time wherever they run, with no libFuzzer needed.
 *
 *  1. parser: lines pmon writes, mutated (bits flipped, bytes inserted,
 *     deleted, replaced by digits or separators, cut, fields spliced from
 *     another line), half of them given a fresh sum so that the parser
 *     past the sum is reached.  A line accepted must be exactly the line
 *     pmon_journal_format writes for what was parsed from it.
 *  2. reset: journals of such lines (and of lines naming registers near the
 *     PMON ones) written to a fake machine's run directory and read by
 *     pmon_machine_reset_with, in process; registers outside the PMON set
 *     (IA32_MISC_ENABLE, MSR 0x0, MSR 0x180 and PERFEVTSEL of the other
 *     socket's CPU, the PCI command register, a PCI register past the
 *     PMON ones) never change.
 * PMON_FUZZ_SECONDS sets the time of each part (default 2).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fake_hw.h"
#include "journal.h"
#include "pmon/pmon.h"
#include "xorshift.h"

static char base[128];
static struct fake_world w;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static const char *const boxes[] = { "snbep_unc_cbo0", "snbep_unc_cbo1", "snbep_unc_pcu",
				      "snbep_unc_ubox", "snbep_unc_imc0", "snbep_unc_qpi0",
				      "snbep_unc_ha", "snb_ep", "snbep_unc_r2pcie", "x" };
#define NBOXES ((int)(sizeof(boxes) / sizeof(boxes[0])))

/* A line pmon could have written (or one a step beside it). */
static int seed_line(uint64_t *rng, char *buf, size_t len)
{
	struct pmon_journal_entry e;
	memset(&e, 0, sizeof(e));
	uint64_t r = xorshift64(rng);
	e.owner.pid = (long)(r % 70000);
	e.owner.start = xorshift64(rng) % 1000000;
	snprintf(e.box, sizeof(e.box), "%s", boxes[r % NBOXES]);
	e.cpu = (int)((r >> 8) % 6) - 2;
	e.kind = (enum pmon_reg_kind)((r >> 16) % 7);
	e.idx = (int)((r >> 20) % 12) - 3;
	if ((r >> 30) % 5 == 0)
		e.idx = (int)(int32_t)xorshift64(rng);
	static const uint64_t vals[] = { 0, 0x400000, 0x10000, 0x20, 0xffffffffffffffffull,
					 0x400304, 0x3, 0x8000000000000000ull };
	e.value = (r >> 33) % 3 ? vals[(r >> 36) % 8] : xorshift64(rng);
	e.wrote = vals[(r >> 40) % 8];
	e.has_wrote = (r >> 44) & 1;
	e.mask = (r >> 45) % 4 ? ~0ull : (r >> 47) % 2 ? 0 : 0x3;
	if ((r >> 50) % 3 == 0) {
		/* a line pmon writes: a control or a filter, holding what
		 * pmon wrote (the registers start at 0) */
		static const char *const ok[] = { "snbep_unc_cbo0", "snbep_unc_cbo1", "snbep_unc_pcu",
						  "snbep_unc_imc0", "snbep_unc_ha" };
		snprintf(e.box, sizeof(e.box), "%s", ok[(r >> 52) % 5]);
		e.cpu = -1;
		e.kind = (r >> 55) & 1 ? REG_CTL : REG_BOX_CTL;
		e.idx = 0;
		e.value = (r >> 56) & 1 ? 0x400000 : 0;
		e.wrote = 0;
		e.has_wrote = 1;
		e.mask = ~0ull;
	}
	return pmon_journal_format(&e, buf, len);
}

static uint32_t fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* Mutate line (NUL-terminated, room for len) in place. */
static void mutate(uint64_t *rng, char *line, size_t len, const char *other)
{
	size_t n = strlen(line);
	int rounds = 1 + (int)(xorshift64(rng) % 4);
	static const char alphabet[] = "0123456789abcdefx=:- \n\t#-+";
	for (int k = 0; k < rounds; k++) {
		uint64_t r = xorshift64(rng);
		size_t at = n ? (size_t)(r >> 8) % n : 0;
		switch (r % 7) {
		case 0:                                  /* flip a bit */
			if (n)
				line[at] ^= (char)(1u << ((r >> 40) % 8));
			break;
		case 1:                                  /* insert a byte */
			if (n + 2 < len) {
				memmove(line + at + 1, line + at, n - at + 1);
				line[at] = alphabet[(r >> 40) % (sizeof(alphabet) - 1)];
				n++;
			}
			break;
		case 2:                                  /* delete a byte */
			if (n) {
				memmove(line + at, line + at + 1, n - at);
				n--;
			}
			break;
		case 3:                                  /* replace by a digit or separator */
			if (n)
				line[at] = alphabet[(r >> 40) % (sizeof(alphabet) - 1)];
			break;
		case 4:                                  /* cut */
			line[at] = 0;
			n = at;
			break;
		case 5: {                                /* splice a piece of another line */
			size_t on = strlen(other), from = on ? (size_t)(r >> 40) % on : 0;
			size_t take = on - from < 24 ? on - from : 24;
			if (n + take + 1 < len) {
				memmove(line + at + take, line + at, n - at + 1);
				memcpy(line + at, other + from, take);
				n += take;
			}
			break;
		}
		case 6:                                  /* a huge number */
			if (n + 22 < len) {
				memmove(line + at + 20, line + at, n - at + 1);
				memcpy(line + at, "18446744073709551616", 20);
				n += 20;
			}
			break;
		}
	}
	/* half of them: a sum that matches what is there now */
	char *sum = NULL;
	for (char *p = strstr(line, " sum="); p; p = strstr(p + 1, " sum="))
		sum = p;
	if (sum && (xorshift64(rng) & 1) && (size_t)(sum - line) + 15 < len)
		snprintf(sum, len - (size_t)(sum - line), " sum=%08x\n", fnv(line, (size_t)(sum - line)));
}

static void fuzz_parser(double seconds, long max)
{
	uint64_t rng = 0x18f00d5eedull;
	char line[1024], other[512], again[1024], why[256];
	long n = 0, accepted = 0, wrong = 0;
	double end = now_s() + seconds;
	for (; n < max && (n & 255 || now_s() < end); n++) {
		seed_line(&rng, line, 512);
		seed_line(&rng, other, sizeof(other));
		mutate(&rng, line, sizeof(line), other);
		struct pmon_journal_entry e;
		if (pmon_journal_parse(line, &e, why, sizeof(why)))
			continue;
		accepted++;
		int k = pmon_journal_format(&e, again, sizeof(again));
		size_t l = strlen(line);
		int bad = k < 0 || strncmp(again, line, l) || ((size_t)k != l && (size_t)k != l + 1) ||
			  (k > 0 && (size_t)k == l + 1 && line[l - 1] == '\n');
		if (bad && wrong < 3)
			printf("accepted, yet not as pmon writes it: [%s] -> [%s]\n", line, again);
		wrong += bad;
	}
	CHECK(n > 1000, "the parser ran (%ld lines)", n);
	CHECK(accepted > 0, "some lines accepted (%ld)", accepted);
	CHECK_EQ_INT((int)wrong, 0, "every accepted line is exactly what pmon writes for it");
	printf("journal fuzz: parser: %ld lines in %.1f s, %ld accepted, %ld not as pmon writes\n", n,
	       seconds, accepted, wrong);
}

struct sentinel { int cpu; uint32_t msr; uint64_t v; };

static void fuzz_reset(double seconds, long max)
{
	uint64_t rng = 0x5eed0f18ull;
	pmon_machine_t *m;
	char why[512], path[400], text[8192], line[1024], other[512];
	static char report[65536];
	CHECK_EQ_INT(pmon_machine_open(&m, "msr", why, sizeof(why)), PMON_OK, why);
	if (!m)
		return;
	int cpu0 = pmon_machine_socket_cpu(m, 0), cpu1 = pmon_machine_socket_cpu(m, 1);
	struct sentinel sen[] = {
		{ cpu0, 0x1a0, 0x850089 }, { cpu0, 0x0, 0x1111 }, { cpu1, 0x180, 0x2222 },
		{ cpu1, 0x189, 0x3333 }, { cpu0, 0xbf0, 0x4444 }, { cpu0, 0xe00, 0x5555 },
	};
	int nsen = (int)(sizeof(sen) / sizeof(sen[0]));
	for (int i = 0; i < nsen; i++)
		fake_msr_put(w.msr, sen[i].cpu, sen[i].msr, sen[i].v);
	uint32_t cmd = fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0x4);
	fake_pci_put(w.sysfs, 0, 0x3f, 16, 0, 0x300, 0x6666);
	snprintf(path, sizeof(path), "%s/socket0.journal", w.run);
	fake_mkdir_p(w.run);
	long n = 0, written = 0, changed = 0, crashed = 0;
	double end = now_s() + seconds;
	for (; n < max && (n & 15 || now_s() < end); n++) {
		size_t at = 0;
		int lines = 1 + (int)(xorshift64(&rng) % 6);
		for (int l = 0; l < lines; l++) {
			seed_line(&rng, line, 512);
			seed_line(&rng, other, sizeof(other));
			if (xorshift64(&rng) % 3)
				mutate(&rng, line, sizeof(line), other);
			size_t k = strlen(line);
			if (at + k + 1 < sizeof(text)) {
				memcpy(text + at, line, k);
				at += k;
			}
		}
		if (fake_write_journal(path, text, at)) {
			crashed++;
			break;
		}
		int rc = pmon_machine_reset_with(m, 0, (unsigned)(xorshift64(&rng) % 4), report,
						 sizeof(report));
		(void)rc;
		written += strstr(report, "socket 0: 0 register(s) put back") == NULL &&
			   strstr(report, "register(s) put back") != NULL;
		for (int i = 0; i < nsen; i++)
			changed += fake_msr_get(w.msr, sen[i].cpu, sen[i].msr) != sen[i].v;
		changed += fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0x4) != cmd;
		changed += fake_pci_get(w.sysfs, 0, 0x3f, 16, 0, 0x300) != 0x6666;
		unlink(path);
	}
	CHECK(n > 20, "reset ran (%ld journals)", n);
	CHECK_EQ_INT((int)changed, 0, "no register outside the PMON set changed");
	CHECK_EQ_INT((int)crashed, 0, "every journal written");
	printf("journal fuzz: reset: %ld journals in %.1f s, %ld reset(s) put registers back, "
	       "%ld writes outside the PMON set\n", n, seconds, written, changed);
	pmon_machine_close(m);
}

int main(void)
{
	const char *t = getenv("PMON_FUZZ_SECONDS");
	double seconds = t && atof(t) > 0 ? atof(t) : 2.0;
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		CHECK(0, "fake device files");
		return check_done("test_journal_fuzz");
	}
	fuzz_parser(seconds, 5000000);
	fuzz_reset(seconds, 200000);
	fake_rmtree(base);
	return check_done("test_journal_fuzz");
}
