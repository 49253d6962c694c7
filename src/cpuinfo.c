/* cpuinfo.c - parse the first processor entry of /proc/cpuinfo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "cpuinfo.h"

static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n))
		return NULL;
	const char *p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

static void copy_trim(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	size_t n = strlen(dst);
	while (n && (dst[n - 1] == '\n' || dst[n - 1] == ' '))
		dst[--n] = 0;
}

int pmon_cpuinfo_read(const char *path, struct pmon_cpuid *id)
{
	FILE *f = fopen(path ? path : "/proc/cpuinfo", "r");
	char line[512];
	int seen = 0;
	const char *v;

	memset(id, 0, sizeof(*id));
	if (!f)
		return PMON_ENODEV;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n') {
			if (seen)
				break;
			continue;
		}
		if ((v = value_of(line, "vendor_id")))
			copy_trim(id->vendor, sizeof(id->vendor), v), seen = 1;
		else if ((v = value_of(line, "cpu family")))
			id->family = (unsigned)strtoul(v, NULL, 10), seen = 1;
		else if ((v = value_of(line, "model name")))
			copy_trim(id->brand, sizeof(id->brand), v), seen = 1;
		else if ((v = value_of(line, "model")))
			id->model = (unsigned)strtoul(v, NULL, 10), seen = 1;
		else if ((v = value_of(line, "stepping")))
			id->stepping = (unsigned)strtoul(v, NULL, 10), seen = 1;
	}
	fclose(f);
	return seen ? PMON_OK : PMON_EIO;
}
