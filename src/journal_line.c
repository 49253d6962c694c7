/* journal_line.c - the journal's lines (journal.h): the owner of a line
 * (a process as pid and start time) and the text of an entry, written and
 * parsed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "boxlock.h"
#include "journal.h"
#include "journal_internal.h"
#include "why.h"

static const char *const kind_names[] = {
	[REG_BOX_CTL] = "box_ctl", [REG_CTL] = "ctl", [REG_CTR] = "ctr",
	[REG_FIXED_CTL] = "fixed_ctl", [REG_FIXED_CTR] = "fixed_ctr",
	[REG_FILTER] = "filter", [REG_GLOBAL_CTL] = "global_ctrl", [REG_GLOBAL_OVF] = "global_ovf",
};
#define NKINDS ((int)(sizeof(kind_names) / sizeof(kind_names[0])))

const char *pmon_reg_kind_name(enum pmon_reg_kind k)
{
	return (int)k >= 0 && (int)k < NKINDS && kind_names[k] ? kind_names[k] : "?";
}

static int kind_of(const char *name)
{
	for (int k = 0; k < NKINDS; k++)
		if (kind_names[k] && !strcmp(kind_names[k], name))
			return k;
	return -1;
}

/* ------------------------------------------------------------------ owners */

/* Field 22 (start time) and field 3 (state) of /proc/PID/stat: 0, or an errno. */
static int proc_start(long pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int e = errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? e : EINVAL;
	buf[n] = 0;
	/* the command name (field 2) may hold spaces and parentheses: the
	 * fields after it follow its last ')' */
	char *p = strrchr(buf, ')'), *save = NULL, *tok;
	if (!p)
		return EINVAL;
	int field = 3;
	for (tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3)
			*state = tok[0];
		if (field == 22) {
			char *end;
			errno = 0;
			*start = strtoull(tok, &end, 10);
			return errno || end == tok ? EINVAL : 0;
		}
	}
	return EINVAL;
}

const struct pmon_owner *pmon_owner_self(void)
{
	static __thread struct pmon_owner self;   /* per thread: no lock; a fork re-reads */
	long pid = pmon_self_pid();
	if (self.pid != pid) {
		char st;
		unsigned long long start = 0;
		if (proc_start(pid, &start, &st))
			start = 0;
		self.start = start;
		self.pid = pid;
	}
	return &self;
}

int pmon_owner_alive(const struct pmon_owner *o)
{
	unsigned long long start;
	char state = 0;
	if (o->pid <= 0 || o->pid > INT_MAX)
		return 0;
	int e = proc_start(o->pid, &start, &state);
	if (e == ENOENT || e == ESRCH)
		return 0;
	if (e)
		return 1;                      /* cannot tell: not to be taken for dead */
	return start == o->start && state != 'Z' && state != 'X';
}

int pmon_owner_same(const struct pmon_owner *a, const struct pmon_owner *b)
{
	return a->pid == b->pid && a->start == b->start;
}

/* ------------------------------------------------------------- line format */

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* The text of a line, built by hand: a rewrite formats every line of the
 * journal, and snprintf() was a fifth of a session's start and stop. */
struct out {
	char *p, *end;
};

static void put_str(struct out *o, const char *s)
{
	while (*s && o->p < o->end)
		*o->p++ = *s++;
	if (*s)
		o->p = o->end + 1;           /* overflowed */
}

static void put_udec(struct out *o, unsigned long long v)
{
	char d[24];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n && o->p < o->end)
		*o->p++ = d[--n];
	if (n)
		o->p = o->end + 1;
}

static void put_dec(struct out *o, long long v)
{
	if (v < 0) {
		put_str(o, "-");
		put_udec(o, 0ull - (unsigned long long)v);
	} else {
		put_udec(o, (unsigned long long)v);
	}
}

/* v in lowercase hexadecimal, at least width digits */
static void put_hex(struct out *o, uint64_t v, int width)
{
	char d[16];
	int n = 0;
	do
		d[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4) || n < width);
	while (n && o->p < o->end)
		*o->p++ = d[--n];
	if (n)
		o->p = o->end + 1;
}

int pmon_journal_format(const struct pmon_journal_entry *e, char *buf, size_t len)
{
	if (len < 2)
		return -1;
	struct out o = { buf, buf + len - 1 };       /* room for the NUL */
	put_str(&o, "owner=");
	put_dec(&o, e->owner.pid);
	put_str(&o, ":");
	put_udec(&o, e->owner.start);
	put_str(&o, " box=");
	char box[sizeof(e->box)];
	memcpy(box, e->box, sizeof(box));
	box[sizeof(box) - 1] = 0;
	put_str(&o, box);
	put_str(&o, " cpu=");
	put_dec(&o, e->cpu);
	put_str(&o, " reg=");
	put_str(&o, pmon_reg_kind_name(e->kind));
	put_str(&o, " idx=");
	put_dec(&o, e->idx);
	put_str(&o, " value=0x");
	put_hex(&o, e->value, 1);
	if (e->has_wrote) {
		put_str(&o, " wrote=0x");
		put_hex(&o, e->wrote, 1);
	} else {
		put_str(&o, " wrote=-");
	}
	put_str(&o, " mask=0x");
	put_hex(&o, e->mask, 1);
	if (o.p > o.end)
		return -1;
	uint32_t h = fnv1a(buf, (size_t)(o.p - buf));
	put_str(&o, " sum=");
	put_hex(&o, h, 8);
	put_str(&o, "\n");
	if (o.p > o.end)
		return -1;
	*o.p = 0;
	return (int)(o.p - buf);
}

int pmon_journal_parse(const char *line, struct pmon_journal_entry *e, char *why, size_t len)
{
	char buf[LINE_MAX_BYTES + 2], again[LINE_MAX_BYTES + 2], kind[16], wrote[24];
	size_t n = strlen(line);
	memset(e, 0, sizeof(*e));
	if (n && line[n - 1] == '\n')
		n--;
	if (n > LINE_MAX_BYTES)
		return pmon_why(why, len, -1, "longer than any entry (%zu bytes)", n), -1;
	memcpy(buf, line, n);
	buf[n] = 0;
	memcpy(again, line, n);           /* kept whole: buf is cut at its sum */
	if (memchr(buf, 0, n))
		return pmon_why(why, len, -1, "holds a NUL byte"), -1;
	char *sum = NULL;
	for (char *p = strstr(buf, " sum="); p; p = strstr(p + 1, " sum="))
		sum = p;
	if (!sum)
		return pmon_why(why, len, -1, "has no sum= (truncated, or not written by pmon)"), -1;
	char *end;
	errno = 0;
	unsigned long h = strtoul(sum + 5, &end, 16);
	if (end != sum + 13 || *end || errno || h != fnv1a(buf, (size_t)(sum - buf)))
		return pmon_why(why, len, -1, "its sum does not match its text (damaged or edited)"), -1;
	*sum = 0;
	int used = -1;
	if (sscanf(buf, "owner=%ld:%llu box=%47[a-z0-9_] cpu=%d reg=%15[a-z_] idx=%d value=0x%" SCNx64
		   " wrote=%23s mask=0x%" SCNx64 "%n", &e->owner.pid, &e->owner.start, e->box, &e->cpu,
		   kind, &e->idx, &e->value, wrote, &e->mask, &used) != 9 || used < 0 || buf[used])
		return pmon_why(why, len, -1, "is not a journal entry"), -1;
	int k = kind_of(kind);
	if (k < 0)
		return pmon_why(why, len, -1, "names no register kind pmon journals: %s", kind), -1;
	e->kind = (enum pmon_reg_kind)k;
	if (strcmp(wrote, "-")) {
		errno = 0;
		e->wrote = strtoull(wrote, &end, 16);
		e->has_wrote = 1;
		if (errno || *end || strncmp(wrote, "0x", 2))
			return pmon_why(why, len, -1, "wrote= is not a value: %s", wrote), -1;
	}
	/* only the text pmon writes for these values is an entry (no sign,
	 * no leading zero, no spaces, a lowercase sum) */
	char mine[LINE_MAX_BYTES + 2];
	int m = pmon_journal_format(e, mine, sizeof(mine));
	if (m < 1 || (size_t)m - 1 != n || memcmp(mine, again, n))
		return pmon_why(why, len, -1, "is not written as pmon writes an entry"), -1;
	return 0;
}
