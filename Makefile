# Physical clusters for manual work, the ones the e2e tests start
# (e2e/pcluster). Their state is under $TMPDIR/canopy-pclusters.
N ?= 3

.PHONY: pclusters pclusters-down

pclusters:
	go run ./e2e/pcluster/pclusters up -n $(N)

pclusters-down:
	go run ./e2e/pcluster/pclusters down
