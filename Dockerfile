# Production image: the API, the built PWA and (without PAYGATE_ID) nothing else.
FROM node:20-bookworm-slim
# DejaVu renders the watermark text; sharp ships its own libvips.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --include=dev
COPY . .
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 8080
CMD ["npm", "start"]
