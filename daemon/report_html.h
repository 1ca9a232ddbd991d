/*
 * report_html.h: a run report as one self-contained HTML page.
 *
 * The page has no external assets and no JavaScript: inline CSS, the
 * verdict with its likely causes and what to try next (advice.h), and
 * inline SVG line charts of the window's series (the client's rate, the
 * run's interface and the other NICs against their capacity, disks grouped
 * under their arrays, CPU per core, process groups).
 * Every string taken from the report is HTML-escaped.  Rates are shown in
 * MB/s (10^6 bytes per second), times in UTC.
 */
#ifndef REPORT_HTML_H
#define REPORT_HTML_H

#include <stdio.h>

#include <jansson.h>

/*
 * Write the report (borrowed; the shape of GET /v1/runs/{id}/report) to out
 * as an HTML5 page.  Missing or mistyped members show as "—" or are left
 * out.  0, or -1 with errno: EINVAL when report is not an object, EIO when
 * writing failed.
 */
int	report_html_write(const json_t *report, FILE *out);

#endif /* REPORT_HTML_H */
