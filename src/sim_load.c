/*
 * sim_load.c - the emulated machine's library loaded for the sim backend
 * (sim_load.h).  Built twice: for libpmon.so (the library is loaded with
 * dlopen from libpmon's own directory) and, with PMON_SIM_STATIC, for
 * libpmon.a, which holds the emulator itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "pmon/pmon.h"
#include "sim_load.h"
#include "why.h"

#ifdef PMON_SIM_STATIC

int pmon_sim_load_open(struct pmon_access **out, char *why, size_t whylen)
{
	return pmon_sim_access_open(out, why, whylen);
}

int pmon_sim_load_modeled(const char *box_type, uint64_t ctl, const uint64_t filt[2])
{
	return pmon_sim_access_ops.event_modeled(NULL, box_type, ctl, filt);
}

#else

#define SIM_LIB "libpmon-sim.so." PMON_VERSION_STRING

static pthread_once_t sim_once = PTHREAD_ONCE_INIT;
static int (*sim_open)(struct pmon_access **out, char *why, size_t whylen);
static const struct pmon_access_ops *sim_ops;
static int sim_rc;
static char sim_why[PATH_MAX + 256];

/* As root or elevated: is st (of path, what: "file" or "directory") safe to
 * load code from?  Root's or the effective user's, writable by no one else. */
static int trusted(const struct stat *st, const char *path, const char *what)
{
	if ((st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH)))
		return pmon_why(sim_why, sizeof sim_why, PMON_EPERM,
				"the emulated machine's library: the %s %s belongs to uid %u with mode "
				"%03o; pmon runs with privileges and loads code only from a %s of root's "
				"(or its effective user's) that no one else can write", what, path,
				(unsigned)st->st_uid, (unsigned)(st->st_mode & 0777), what);
	return PMON_OK;
}

static void sim_load(void)
{
	Dl_info di;
	char path[PATH_MAX];
	struct stat st;
	const char *slash;
	void *h;

	/* libpmon's own file: the library beside it */
	if (!dladdr((void *)pmon_sim_load_open, &di) || !di.dli_fname ||
	    !(slash = strrchr(di.dli_fname, '/'))) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO, "the emulated machine's library: "
				  "libpmon could not tell the directory it was loaded from");
		return;
	}
	if (snprintf(path, sizeof path, "%.*s/%s", (int)(slash - di.dli_fname), di.dli_fname,
		     SIM_LIB) >= (int)sizeof path) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO, "the emulated machine's library: "
				  "the path of libpmon's directory is too long");
		return;
	}
	/* a regular file, not a symbolic link: the exact version built with libpmon */
	if (lstat(path, &st)) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s: %s (it is built and installed "
				  "beside libpmon)", path, strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s is not a regular file", path);
		return;
	}
	if (geteuid() == 0 || pmon_env_elevated()) {
		struct stat dst;
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
		if ((sim_rc = trusted(&st, path, "file")))
			return;
		if (stat(dir, &dst)) {
			sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_EIO,
					  "the emulated machine's library: %s: %s", dir, strerror(errno));
			return;
		}
		if ((sim_rc = trusted(&dst, dir, "directory")))
			return;
	}
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library could not be loaded: %s", dlerror());
		return;
	}
	*(void **)&sim_open = dlsym(h, "pmon_sim_access_open");
	sim_ops = dlsym(h, "pmon_sim_access_ops");
	if (!sim_open || !sim_ops) {
		sim_rc = pmon_why(sim_why, sizeof sim_why, PMON_ENODEV,
				  "the emulated machine's library %s lacks pmon_sim_access_open or "
				  "pmon_sim_access_ops", path);
		dlclose(h);
		sim_open = NULL;
		sim_ops = NULL;
	}
}

int pmon_sim_load_open(struct pmon_access **out, char *why, size_t whylen)
{
	*out = NULL;
	pthread_once(&sim_once, sim_load);
	if (sim_rc)
		return pmon_why(why, whylen, sim_rc, "%s", sim_why);
	return sim_open(out, why, whylen);
}

int pmon_sim_load_modeled(const char *box_type, uint64_t ctl, const uint64_t filt[2])
{
	pthread_once(&sim_once, sim_load);
	return sim_rc ? 0 : sim_ops->event_modeled(NULL, box_type, ctl, filt);
}

#endif
