FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY migrations migrations
COPY scripts scripts
COPY web web
RUN npm run build && npm prune --omit=dev

FROM node:24.21.0-bookworm-slim
# the commit the image was built from, reported by /health/ready (docker compose build passes it)
ARG GIT_COMMIT=unknown
WORKDIR /app
ENV NODE_ENV=production GIT_COMMIT=${GIT_COMMIT}
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
USER node
EXPOSE 8000 9464
CMD ["node", "dist/src/main.js"]
