import fp from 'fastify-plugin'
import { FileStore } from '#src/files/store.js'
import { fileHashesOf, removeUnusedFiles, type FileOwner } from '#src/repositories/files.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The song and gig files on disk (src/files/store.ts) and the band's quota. */
    files: {
      store: FileStore
      quotaBytes: number
      /**
       * Deletes a song or gig through `remove` (whose foreign keys take the file rows with it),
       * then the bytes no other row names. Returns what `remove` returns.
       */
      deleteOwner<T>(owner: FileOwner, remove: () => T): T
    }
  }
}

export interface FileStorePluginOptions {
  dataDir: string
  quotaBytes: number
}

export default fp<FileStorePluginOptions>(
  async (app, options) => {
    const store = new FileStore(options.dataDir)
    app.decorate('files', {
      store,
      quotaBytes: options.quotaBytes,
      deleteOwner<T>(owner: FileOwner, remove: () => T): T {
        const hashes = fileHashesOf(app.db, owner)
        const result = remove()
        removeUnusedFiles(app.db, store, hashes)
        return result
      }
    })
  },
  { name: 'file-store', fastify: '5.x', dependencies: ['db'] }
)
