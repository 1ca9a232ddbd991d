# probes/diskbench.mk: the disk benchmark engine
