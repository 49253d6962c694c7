/*
 * report_record.h - what report.json records so that a run can be
 * reproduced and compared: pmon's version, the date, the command line, the
 * seed, the emulated machine's whole shape (the hardware's identity and
 * settings: hwinfo.h).
 */
#ifndef PMON_VALIDATE_REPORT_RECORD_H
#define PMON_VALIDATE_REPORT_RECORD_H

#include <jansson.h>

#include "vrun.h"

/* {"pmon_version", "date", "command_line", "seed", "backend"}. */
json_t *record_run(const struct vctx *c);
/* The emulated machine's shape, every field (NULL on hardware). */
json_t *record_shape(const struct vctx *c);
#endif
