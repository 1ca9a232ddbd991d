# client/importers.mk: readers of benchmark tools' output (dd, fio, CrystalDiskMark)
