/*
 * sim_shape.c - the PMON_SIM shape string: defaults, parsing, range checks.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim_machine.h"
#include "nhm_sim.h"

enum key_type { K_INT, K_SIZE, K_FREQ, K_NODEIDS, K_CLOCK, K_RATE, K_PREFETCH, K_GEN, K_ONOFF };

struct key_def {
	const char *name;
	enum key_type type;
	uint64_t min, max;
	const char *range;      /* as printed in messages */
};

static const struct key_def keys[] = {
	{ "sockets",  K_INT,  1, SIM_MAX_SOCKETS, "1..8" },
	{ "cores",    K_INT,  1, SIM_MAX_CORES, "1..8" },
	{ "threads",  K_INT,  1, 2, "1..2" },
	{ "channels", K_INT,  1, SIM_MAX_CHANS, "1..4" },
	{ "llc",      K_SIZE, 64ull << 10, 64ull << 20, "64K..64M" },
	{ "mem",      K_SIZE, 64ull << 20, 4ull << 40, "64M..4T" },
	{ "dclk",     K_FREQ, 100000000ull, 2000000000ull, "100M..2G" },
	{ "uclk",     K_FREQ, 100000000ull, 5000000000ull, "100M..5G" },
	{ "tsc",      K_FREQ, 100000000ull, 5000000000ull, "100M..5G" },
	{ "qclk",     K_FREQ, 100000000ull, 5000000000ull, "100M..5G" },
	{ "pclk",     K_FREQ, 100000000ull, 2000000000ull, "100M..2G" },
	{ "nodeids",  K_NODEIDS, 0, 7, "0..7" },
	{ "clock",    K_CLOCK, 0, PMON_SIM_CLOCK_AUTO, "manual, wall or auto" },
	{ "load",     K_RATE, 0, PMON_SIM_LOAD_MAX,
	  "0..2G (the emulator models every line of the stream; a faster one would "
	  "take most of a CPU)" },
	{ "noise",    K_RATE, 0, PMON_SIM_LOAD_MAX,
	  "0..2G per socket (the emulator models every line of the trickle, like load=)" },
	{ "l1",       K_SIZE, 1ull << 10, 1ull << 20, "1K..1M" },
	{ "l1ways",   K_INT,  1, 32, "1..32" },
	{ "l2",       K_SIZE, 4ull << 10, 16ull << 20, "4K..16M" },
	{ "l2ways",   K_INT,  1, 32, "1..32" },
	{ "llcways",  K_INT,  1, 32, "1..32" },
	{ "prefetch", K_PREFETCH, 0, 0xf, "0x0..0xf (MSR 0x1A4: bit 0 L2 streamer, 1 L2 adjacent "
	  "line, 2 DCU next line, 3 DCU IP stride; a bit set turns it off)" },
	{ "lat_l1",   K_INT,  0, 100000, "0..100000" },
	{ "lat_l2",   K_INT,  0, 100000, "0..100000" },
	{ "lat_llc",  K_INT,  0, 100000, "0..100000" },
	{ "lat_dram", K_INT,  0, 100000, "0..100000" },
	{ "lat_rdram", K_INT, 0, 100000, "0..100000" },
	{ "lat_rcache", K_INT, 0, 100000, "0..100000" },
	{ "gen",      K_GEN, 0, PMON_SIM_GEN_WSMEP, "snb-ep, nhm-ep or wsm-ep" },
	{ "nt_erratum", K_ONOFF, 0, 1, "on or off" },
};
_Static_assert(sizeof keys / sizeof keys[0] <= 32, "a bit of `seen` for each key");
#define NKEYS (sizeof keys / sizeof keys[0])

static void fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static void defaults(struct pmon_sim_shape *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->sockets = 2;
	sh->cores = 8;
	sh->threads = 2;
	sh->channels = 4;
	sh->llc_bytes = 20ull << 20;
	sh->mem_bytes = 32ull << 30;
	sh->dclk_hz = 800000000ull;
	sh->uclk_hz = 2700000000ull;
	sh->tsc_hz = 2700000000ull;
	sh->qclk_hz = 1000000000ull;
	sh->pclk_hz = 800000000ull;
	sh->clock = PMON_SIM_CLOCK_MANUAL;    /* the process-wide machine: auto */
	sh->load_bps = 0;
	sh->noise_bps = 0;
	for (int i = 0; i < SIM_MAX_SOCKETS; i++)
		sh->nodeids[i] = i;
	sh->l1_bytes = 32ull << 10;
	sh->l2_bytes = 256ull << 10;
	sh->l1_ways = 8;
	sh->l2_ways = 8;
	sh->llc_ways = 20;
	sh->prefetch = 0;                     /* MSR 0x1A4 = 0: all four on, as silicon */
	sh->lat_ns[PMON_SIM_SUP_L1] = 2;
	sh->lat_ns[PMON_SIM_SUP_L2] = 5;
	sh->lat_ns[PMON_SIM_SUP_LLC] = 15;
	sh->lat_ns[PMON_SIM_SUP_DRAM] = 80;
	sh->lat_ns[PMON_SIM_SUP_RDRAM] = 130;
	sh->lat_ns[PMON_SIM_SUP_RCACHE] = 110;
}

/*
 * Parse s[0..n) as digits[.digits][K|M|G][unit].  size_suffix: K/M/G are
 * powers of two (unit "B" allowed), else powers of ten (unit "Hz" allowed,
 * or the unit given).  The value must be an exact integer.  0 ok, -1
 * malformed or too large.
 */
static int parse_u64_unit(const char *s, size_t n, int size_suffix, const char *unit,
			  uint64_t *out)
{
	size_t i = 0;
	unsigned __int128 ip = 0, fp = 0, fscale = 1, mult = 1, v;

	if (n == 0 || !isdigit((unsigned char)s[0]))
		return -1;
	while (i < n && isdigit((unsigned char)s[i])) {
		ip = ip * 10 + (unsigned)(s[i++] - '0');
		if (ip > UINT64_MAX)
			return -1;
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || !isdigit((unsigned char)s[i]))
			return -1;
		while (i < n && isdigit((unsigned char)s[i])) {
			if (fscale > 1000000000000ull)
				return -1;
			fp = fp * 10 + (unsigned)(s[i++] - '0');
			fscale *= 10;
		}
	}
	if (i < n) {
		char c = (char)toupper((unsigned char)s[i]);
		unsigned base = size_suffix ? 1024 : 1000;
		int pw = c == 'K' ? 1 : c == 'M' ? 2 : c == 'G' ? 3 : c == 'T' ? 4 : 0;
		if (pw) {
			for (int p = 0; p < pw; p++)
				mult *= base;
			i++;
		}
	}
	if (i < n) {
		size_t ul;
		if (!unit)
			unit = size_suffix ? "B" : "Hz";
		ul = strlen(unit);
		if (n - i != ul)
			return -1;
		for (size_t u = 0; u < ul; u++)
			if (toupper((unsigned char)s[i + u]) != toupper((unsigned char)unit[u]))
				return -1;
	}
	v = ip * mult;
	if ((fp * mult) % fscale != 0)
		return -1;
	v += fp * mult / fscale;
	if (v > UINT64_MAX)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int sim_parse_u64(const char *s, size_t n, int size_suffix, uint64_t *out)
{
	return parse_u64_unit(s, n, size_suffix, NULL, out);
}

static const char *expected_list(void)
{
	return "sockets, cores, threads, channels, llc, mem, dclk, uclk, tsc, qclk, pclk, "
	       "nodeids, clock, load, noise, l1, l1ways, l2, l2ways, llcways, prefetch, lat_l1, "
	       "lat_l2, lat_llc, lat_dram, lat_rdram, lat_rcache, gen, nt_erratum";
}

static int set_value(struct pmon_sim_shape *sh, const struct key_def *k, uint64_t v)
{
	if (!strcmp(k->name, "sockets")) sh->sockets = (int)v;
	else if (!strcmp(k->name, "cores")) sh->cores = (int)v;
	else if (!strcmp(k->name, "threads")) sh->threads = (int)v;
	else if (!strcmp(k->name, "channels")) sh->channels = (int)v;
	else if (!strcmp(k->name, "llc")) sh->llc_bytes = v;
	else if (!strcmp(k->name, "mem")) sh->mem_bytes = v;
	else if (!strcmp(k->name, "dclk")) sh->dclk_hz = v;
	else if (!strcmp(k->name, "uclk")) sh->uclk_hz = v;
	else if (!strcmp(k->name, "tsc")) sh->tsc_hz = v;
	else if (!strcmp(k->name, "qclk")) sh->qclk_hz = v;
	else if (!strcmp(k->name, "pclk")) sh->pclk_hz = v;
	else if (!strcmp(k->name, "clock")) sh->clock = (int)v;
	else if (!strcmp(k->name, "load")) sh->load_bps = v;
	else if (!strcmp(k->name, "noise")) sh->noise_bps = v;
	else if (!strcmp(k->name, "l1")) sh->l1_bytes = v;
	else if (!strcmp(k->name, "l2")) sh->l2_bytes = v;
	else if (!strcmp(k->name, "l1ways")) sh->l1_ways = (int)v;
	else if (!strcmp(k->name, "l2ways")) sh->l2_ways = (int)v;
	else if (!strcmp(k->name, "llcways")) sh->llc_ways = (int)v;
	else if (!strcmp(k->name, "prefetch")) sh->prefetch = (int)v;
	else if (!strcmp(k->name, "lat_l1")) sh->lat_ns[PMON_SIM_SUP_L1] = (uint32_t)v;
	else if (!strcmp(k->name, "lat_l2")) sh->lat_ns[PMON_SIM_SUP_L2] = (uint32_t)v;
	else if (!strcmp(k->name, "lat_llc")) sh->lat_ns[PMON_SIM_SUP_LLC] = (uint32_t)v;
	else if (!strcmp(k->name, "lat_dram")) sh->lat_ns[PMON_SIM_SUP_DRAM] = (uint32_t)v;
	else if (!strcmp(k->name, "lat_rdram")) sh->lat_ns[PMON_SIM_SUP_RDRAM] = (uint32_t)v;
	else if (!strcmp(k->name, "lat_rcache")) sh->lat_ns[PMON_SIM_SUP_RCACHE] = (uint32_t)v;
	else if (!strcmp(k->name, "gen")) sh->gen = (int)v;
	else if (!strcmp(k->name, "nt_erratum")) sh->nt_erratum = (int)v;
	else return -1;
	return 0;
}

/* A private cache: sets = bytes / (64 * ways), a power of two. */
static int private_cache(const char *key, uint64_t bytes, int ways, char *err, size_t errlen)
{
	uint64_t sets = bytes / 64 / (uint64_t)ways;

	if (sets == 0 || sets * 64 * (uint64_t)ways != bytes || (sets & (sets - 1))) {
		fail(err, errlen, "PMON_SIM: %s=%lluB with %sways=%d: size / (64 * ways) must be a "
		     "power of two (the number of sets)", key, (unsigned long long)bytes, key, ways);
		return -1;
	}
	return 0;
}

static int cache_geometry(const struct pmon_sim_shape *sh, char *err, size_t errlen)
{
	if (private_cache("l1", sh->l1_bytes, sh->l1_ways, err, errlen) ||
	    private_cache("l2", sh->l2_bytes, sh->l2_ways, err, errlen))
		return -1;
	if (sh->l2_bytes < sh->l1_bytes) {
		fail(err, errlen, "PMON_SIM: l2 (%lluB) is smaller than l1 (%lluB): the L2 "
		     "includes the L1", (unsigned long long)sh->l2_bytes,
		     (unsigned long long)sh->l1_bytes);
		return -1;
	}
	if (sh->mem_bytes % 4096) {
		fail(err, errlen, "PMON_SIM: mem=%lluB is not a multiple of the 4 KiB page",
		     (unsigned long long)sh->mem_bytes);
		return -1;
	}
	/* llc >= 64K and cores <= 8: a slice holds >= 128 lines, >= llcways */
	return 0;
}

static const char *type_hint(enum key_type t)
{
	switch (t) {
	case K_INT: return "an integer";
	case K_SIZE: return "a size such as 20M or 32G";
	case K_FREQ: return "a frequency such as 800M or 2.7G";
	case K_CLOCK: return "manual, wall or auto";
	case K_RATE: return "bytes per second such as 500M or 1G";
	case K_PREFETCH: return "on, off or the MSR 0x1A4 value 0x0..0xf";
	case K_GEN: return "snb-ep, nhm-ep or wsm-ep";
	case K_ONOFF: return "on or off";
	default: return "node IDs such as 1,0";
	}
}

/* prefetch=on (MSR 0x1A4 = 0), off (0xf) or the MSR's value in hex
 * (0x...): a bare number is refused, 1 having meant "on" once. */
static int parse_prefetch(const char *val, size_t vlen, uint64_t *out)
{
	uint64_t v = 0;

	if (vlen == 2 && !strncmp(val, "on", 2)) {
		*out = 0;
		return 0;
	}
	if (vlen == 3 && !strncmp(val, "off", 3)) {
		*out = 0xf;
		return 0;
	}
	if (vlen < 3 || vlen > 18 || val[0] != '0' || (val[1] != 'x' && val[1] != 'X'))
		return -1;
	for (size_t i = 2; i < vlen; i++) {
		int c = (unsigned char)val[i];
		if (!isxdigit(c))
			return -1;
		v = v * 16 + (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
	}
	*out = v;
	return 0;
}

static int parse_clock(const char *val, size_t vlen, uint64_t *out)
{
	static const char *const names[] = { "manual", "wall", "auto" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == vlen && !strncmp(names[i], val, vlen)) {
			*out = i;          /* = enum pmon_sim_clock_mode */
			return 0;
		}
	return -1;
}

/* The value of spec's gen key (the generation sets the other keys'
 * defaults, so it is read first), PMON_SIM_GEN_SNBEP without one, -1
 * (err filled) when it names no generation. */
static int find_gen(const char *spec, char *err, size_t errlen)
{
	for (const char *p = spec; p && *p;) {
		const char *end = strchr(p, ','), *tok = p;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		p = end ? end + 1 : NULL;
		while (len && isspace((unsigned char)*tok)) {
			tok++;
			len--;
		}
		if (len < 3 || strncmp(tok, "gen", 3))
			continue;
		size_t i = 3;
		while (i < len && isspace((unsigned char)tok[i]))
			i++;
		if (i == len || tok[i] != '=')
			continue;
		for (i++; i < len && isspace((unsigned char)tok[i]); i++)
			;
		size_t vlen = len - i;
		while (vlen && isspace((unsigned char)tok[i + vlen - 1]))
			vlen--;
		int g = sim_gen_parse(tok + i, vlen);
		if (g < 0)
			fail(err, errlen, "PMON_SIM: bad value '%.*s' for gen (expected snb-ep, nhm-ep "
			     "or wsm-ep)", (int)vlen, tok + i);
		return g;
	}
	return PMON_SIM_GEN_SNBEP;
}

int pmon_sim_shape_parse(const char *spec, struct pmon_sim_shape *shape,
			 char *err, size_t errlen)
{
	return sim_shape_parse(spec, shape, NULL, err, errlen);
}

int sim_shape_parse(const char *spec, struct pmon_sim_shape *shape, int *clock_named,
		    char *err, size_t errlen)
{
	struct pmon_sim_shape sh;
	unsigned seen = 0;
	int nnodes = 0, in_nodeids = 0, gen;
	const char *p = spec;

	if (err && errlen)
		err[0] = '\0';
	if ((gen = find_gen(spec, err, errlen)) < 0)
		return -1;
	defaults(&sh);
	sim_gen_defaults(&sh, gen);       /* gen= sets the other keys' defaults */
	while (p && *p) {
		const char *end = strchr(p, ',');
		const char *tok = p, *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		p = end ? end + 1 : NULL;
		while (len && isspace((unsigned char)*tok)) {
			tok++;
			len--;
		}
		while (len && isspace((unsigned char)tok[len - 1]))
			len--;
		if (!len) {
			in_nodeids = 0;
			continue;
		}
		eq = memchr(tok, '=', len);
		if (!eq && in_nodeids) {
			/* a further node ID of "nodeids=1,0" */
			uint64_t v;
			if (sim_parse_u64(tok, len, 0, &v) || v > 7) {
				fail(err, errlen, "PMON_SIM: nodeids: bad node ID '%.*s' (expected 0..7)",
				     (int)len, tok);
				return -1;
			}
			if (nnodes >= SIM_MAX_SOCKETS) {
				fail(err, errlen, "PMON_SIM: nodeids: more than %d node IDs",
				     SIM_MAX_SOCKETS);
				return -1;
			}
			sh.nodeids[nnodes++] = (int)v;
			continue;
		}
		in_nodeids = 0;
		if (!eq) {
			fail(err, errlen, "PMON_SIM: expected key=value, got '%.*s'", (int)len, tok);
			return -1;
		}
		size_t klen = (size_t)(eq - tok), vlen = len - klen - 1;
		const char *val = eq + 1;
		while (klen && isspace((unsigned char)tok[klen - 1]))
			klen--;
		while (vlen && isspace((unsigned char)*val)) {
			val++;
			vlen--;
		}
		size_t ki;
		for (ki = 0; ki < NKEYS; ki++)
			if (strlen(keys[ki].name) == klen && !strncmp(keys[ki].name, tok, klen))
				break;
		if (ki == NKEYS) {
			fail(err, errlen, "PMON_SIM: unknown key '%.*s' (expected %s)",
			     (int)klen, tok, expected_list());
			return -1;
		}
		const struct key_def *k = &keys[ki];
		if (seen & (1u << ki)) {
			fail(err, errlen, "PMON_SIM: key '%s' given twice", k->name);
			return -1;
		}
		seen |= 1u << ki;
		if (k->type == K_NODEIDS) {
			if (sim_gen_key_check(gen, k->name, 0, err, errlen))
				return -1;
			/* node IDs separated by ':' here, further ones by ',' */
			size_t i = 0;
			nnodes = 0;
			while (i <= vlen) {
				size_t j = i;
				uint64_t v;
				while (j < vlen && val[j] != ':')
					j++;
				if (sim_parse_u64(val + i, j - i, 0, &v) || v > 7) {
					fail(err, errlen,
					     "PMON_SIM: nodeids: bad node ID '%.*s' (expected 0..7)",
					     (int)(j - i), val + i);
					return -1;
				}
				if (nnodes >= SIM_MAX_SOCKETS) {
					fail(err, errlen, "PMON_SIM: nodeids: more than %d node IDs",
					     SIM_MAX_SOCKETS);
					return -1;
				}
				sh.nodeids[nnodes++] = (int)v;
				i = j + 1;
			}
			in_nodeids = 1;
			continue;
		}
		uint64_t v;
		int bad;
		if (k->type == K_CLOCK)
			bad = parse_clock(val, vlen, &v);
		else if (k->type == K_RATE)
			bad = parse_u64_unit(val, vlen, 0, "B/s", &v);
		else if (k->type == K_PREFETCH)
			bad = parse_prefetch(val, vlen, &v);
		else if (k->type == K_GEN)
			bad = (v = (uint64_t)sim_gen_parse(val, vlen)) > PMON_SIM_GEN_WSMEP;
		else if (k->type == K_ONOFF)
			bad = vlen == 2 && !strncmp(val, "on", 2) ? (v = 1, 0)
			    : vlen == 3 && !strncmp(val, "off", 3) ? (v = 0, 0) : 1;
		else
			bad = sim_parse_u64(val, vlen, k->type == K_SIZE, &v);
		if (bad) {
			fail(err, errlen, "PMON_SIM: bad value '%.*s' for %s (expected %s)",
			     (int)vlen, val, k->name, type_hint(k->type));
			return -1;
		}
		if (v < k->min || v > k->max) {
			fail(err, errlen, "PMON_SIM: %s=%.*s out of range %s",
			     k->name, (int)vlen, val, k->range);
			return -1;
		}
		if (k->type == K_SIZE && (v & 63)) {
			fail(err, errlen, "PMON_SIM: %s=%.*s is not a multiple of 64 bytes",
			     k->name, (int)vlen, val);
			return -1;
		}
		if (sim_gen_key_check(gen, k->name, v, err, errlen))
			return -1;
		set_value(&sh, k, v);
	}
	if (nnodes) {
		if (nnodes != sh.sockets) {
			fail(err, errlen,
			     "PMON_SIM: nodeids has %d node ID%s, expected %d (one per socket)",
			     nnodes, nnodes == 1 ? "" : "s", sh.sockets);
			return -1;
		}
		for (int i = 0; i < nnodes; i++)
			for (int j = 0; j < i; j++)
				if (sh.nodeids[i] == sh.nodeids[j]) {
					fail(err, errlen, "PMON_SIM: nodeids: node ID %d used twice",
					     sh.nodeids[i]);
					return -1;
				}
	}
	if (cache_geometry(&sh, err, errlen))
		return -1;
	*shape = sh;
	if (clock_named) {
		*clock_named = 0;
		for (size_t ki = 0; ki < NKEYS; ki++)
			if (keys[ki].type == K_CLOCK && (seen & (1u << ki)))
				*clock_named = 1;
	}
	return 0;
}

/* ---- topology helpers ---- */

int pmon_sim_ncpus(const struct pmon_sim_shape *sh)
{
	return sh->sockets * sh->cores * sh->threads;
}

int pmon_sim_cpu_of(const struct pmon_sim_shape *sh, int socket, int core, int thread)
{
	if (socket < 0 || socket >= sh->sockets || core < 0 || core >= sh->cores ||
	    thread < 0 || thread >= sh->threads)
		return -1;
	return (socket * sh->cores + core) * sh->threads + thread;
}

int pmon_sim_cpu_place(const struct pmon_sim_shape *sh, int cpu,
		       int *socket, int *core, int *thread)
{
	if (cpu < 0 || cpu >= pmon_sim_ncpus(sh))
		return -1;
	if (thread)
		*thread = cpu % sh->threads;
	if (core)
		*core = (cpu / sh->threads) % sh->cores;
	if (socket)
		*socket = cpu / (sh->threads * sh->cores);
	return 0;
}

int pmon_sim_synthetic(const struct pmon_sim_shape *sh, char *buf, size_t len)
{
	int n = snprintf(buf, len, "package:%d core:%d pu:%d", sh->sockets, sh->cores,
			 sh->threads);
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}
