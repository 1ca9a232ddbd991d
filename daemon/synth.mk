# daemon/synth.mk: the synthetic data plane (source and sink)
