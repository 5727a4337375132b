# chatwire in a small static image, for CI systems without Go:
#
#	docker build -t chatwire .
#	docker build -t chatwire --build-arg VERSION=v0.2.0 .   # names the build in reports
#	docker run --rm chatwire check                           # the built-in mock: exit 0
#	docker run --rm -e CHATWIRE_API_KEY -v "$PWD:/reports" -w /reports --user "$(id -u)" \
#	    chatwire check -base-url https://staging.example.com -junit report.xml -json report.json
#	docker run --rm -p 12111:12111 chatwire serve -host 0.0.0.0 -port 12111   # the mock, for client tests
#
# The image holds the chatwire binary (static: CGO_ENABLED=0), the CA
# certificates for https targets, and nothing else: no shell, no package
# manager. It runs as the unprivileged user 65532. The README tells how CI
# systems that need a shell in the job image (GitLab CI) run chatwire.

# GO_IMAGE is the build stage's image: any image with Go 1.26 and /bin/sh.
ARG GO_IMAGE=golang:1.26-bookworm

FROM ${GO_IMAGE} AS build
# GOPROXY for networks that reach Go modules through their own proxy.
ARG GOPROXY=https://proxy.golang.org,direct
ENV GOPROXY=${GOPROXY} CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download && go mod verify
COPY . .
# VERSION names the build when the context has no .git (chatwire version,
# the reports' tool version); with .git, go build stamps the commit itself.
ARG VERSION=""
RUN go build -trimpath -ldflags "-s -w -X main.linkedVersion=${VERSION}" -o /out/chatwire ./cmd/chatwire \
	&& /out/chatwire version \
	&& /out/chatwire check -run chat/5.3 >/dev/null

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/chatwire /chatwire
USER 65532:65532
ENTRYPOINT ["/chatwire"]
CMD ["help"]
