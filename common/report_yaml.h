/*
 * report_yaml.h: a run report (or any JSON value) as YAML.
 *
 * The JSON tree is written through libyaml's emitter: mappings in block
 * style, sequences of numbers and nulls in flow style ([0.5, 1.0, null]) so
 * that a series takes one line, other sequences in block style.  What is
 * written reads back as the same tree: strings that a YAML 1.1 or 1.2
 * reader would take for another type ("true", "yes", "null", "1.5", "0x10",
 * "") are quoted, strings of several lines go in literal blocks, integers
 * stay integers and reals are written with the fewest digits that give back
 * the same double.
 */
#ifndef REPORT_YAML_H
#define REPORT_YAML_H

#include <stdio.h>

#include <jansson.h>

/*
 * Write report (borrowed) to out as one YAML document.  0, or -1 with errno:
 * ENOMEM, EIO when writing failed, EINVAL for a NULL report.
 */
int	report_yaml_write(const json_t *report, FILE *out);

#endif /* REPORT_YAML_H */
