/*
 * report_text.h: a run report as plain text for a terminal
 * (GET /v1/runs/ID/report?format=text, nasperf report).
 *
 * Every string taken from the report (a label, a client's name, a path)
 * is written with its control characters escaped as \xNN, C1 controls
 * included, so that no escape sequence reaches the terminal.
 */
#ifndef REPORT_TEXT_H
#define REPORT_TEXT_H

#include <stdio.h>

#include <jansson.h>

/* Write report (borrowed) to out.  0, or -1 with errno (EIO, ENOMEM). */
int	report_text_write(const json_t *report, FILE *out);

#endif /* REPORT_TEXT_H */
