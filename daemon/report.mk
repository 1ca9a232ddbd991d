# daemon/report.mk: the report renderers (YAML, HTML with inline SVG)
