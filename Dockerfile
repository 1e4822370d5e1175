# Production image: the API and the built PWA. Stateless: photos go to STORAGE_URL (a bucket in
# docker-compose.yml), everything else to the database, so any number of replicas can run it.
# Node 22: the AWS SDK for the object storage requires it from 2027 (20.19+ still works).
FROM node:22-bookworm-slim
# DejaVu renders the watermark text; sharp ships its own libvips.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --include=dev
COPY . .
# The PWA is built once into the image, not by every replica at start.
RUN npm run build
# Two glibc memory arenas keep the memory of image uploads in bounds (docs/images.md, "Memory").
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 8080
CMD ["npm", "start"]
