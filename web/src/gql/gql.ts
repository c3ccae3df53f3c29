/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment BatchFields on Batch {\n    id\n    status\n    operation\n    targetCount\n    changedCount\n    refusedCount\n    refused {\n      uniqueId\n      name\n      reason\n    }\n    sample {\n      uniqueId\n      name\n      before\n      after\n      changes\n    }\n    token\n    canApply\n    canUndo\n    createdAt\n  }\n": typeof types.BatchFieldsFragmentDoc,
    "\n  mutation PreviewBatch($targets: BatchTargetsInput!, $operation: BatchOperationInput!) {\n    previewDatasetBatch(targets: $targets, operation: $operation) {\n      ...BatchFields\n    }\n  }\n": typeof types.PreviewBatchDocument,
    "\n  mutation ApplyBatch($id: ID!, $token: String!) {\n    applyDatasetBatch(id: $id, token: $token) {\n      ...BatchFields\n    }\n  }\n": typeof types.ApplyBatchDocument,
    "\n  mutation UndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      ...BatchFields\n    }\n  }\n": typeof types.UndoBatchDocument,
    "\n  query RecentBatches {\n    datasetBatches(first: 10) {\n      ...BatchFields\n    }\n  }\n": typeof types.RecentBatchesDocument,
    "\n  query FilePreview($file: ID!) {\n    filePreview(file: $file) {\n      fileId\n      filename\n      kind\n      size\n      text\n      bytesRead\n      truncated\n      imagePath\n      reason\n      structure {\n        nodes {\n          path\n          kind\n          shape\n          dtype\n          attributes\n        }\n        truncated\n        ingestor\n      }\n    }\n  }\n": typeof types.FilePreviewDocument,
    "\n  mutation HistoryUndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.HistoryUndoBatchDocument,
    "\n  mutation HistoryRevertDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.HistoryRevertDatasetDocument,
    "\n  mutation HistoryRevertSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.HistoryRevertSampleDocument,
    "\n  query PickUsers($q: String!, $first: Int!) {\n    searchUsers(q: $q, first: $first) {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": typeof types.PickUsersDocument,
    "\n  query PickProjects($q: String!, $first: Int!) {\n    searchProjects(q: $q, first: $first) {\n      uniqueId\n      projectId\n      title\n    }\n  }\n": typeof types.PickProjectsDocument,
    "\n  query PickInstruments($q: String!, $first: Int!) {\n    searchInstruments(q: $q, first: $first) {\n      uniqueId\n      instrumentName\n      instrumentType\n    }\n  }\n": typeof types.PickInstrumentsDocument,
    "\n  query PickSamples($q: String!, $first: Int!) {\n    searchSamples(q: $q, first: $first) {\n      uniqueId\n      sampleName\n      sampleType\n    }\n  }\n": typeof types.PickSamplesDocument,
    "\n  query PickDatasets($q: String!, $first: Int!) {\n    searchDatasets(q: $q, first: $first) {\n      uniqueId\n      datasetName\n      measurement\n    }\n  }\n": typeof types.PickDatasetsDocument,
    "\n  query Me {\n    me {\n      isPlatformAdmin\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query MyApiKeys {\n    myApiKeys {\n      uniqueId\n      prefix\n      label\n      status\n      createdAt\n      expiresAt\n      lastUsedAt\n    }\n  }\n": typeof types.MyApiKeysDocument,
    "\n  mutation CreateApiKey($label: String!, $expiresAt: DateTimeISO) {\n    createApiKey(label: $label, expiresAt: $expiresAt) {\n      secret\n      apiKey {\n        uniqueId\n        prefix\n      }\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      uniqueId\n      status\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  query CreateCapabilities {\n    me {\n      canElevate\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n        canCreateSample\n        canCreateDataset\n        canCreateForOthers\n      }\n    }\n  }\n": typeof types.CreateCapabilitiesDocument,
    "\n  mutation CreateProjectPage($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      projectId\n    }\n  }\n": typeof types.CreateProjectPageDocument,
    "\n  mutation CreateInstrumentPage($input: CreateInstrumentInput!) {\n    createInstrument(input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.CreateInstrumentPageDocument,
    "\n  mutation CreateSamplePage($input: CreateSampleInput!) {\n    createSample(input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.CreateSamplePageDocument,
    "\n  mutation CreateDatasetPage($input: CreateDatasetInput!) {\n    createDataset(input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.CreateDatasetPageDocument,
    "\n  mutation LinkNewDatasetSample($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n": typeof types.LinkNewDatasetSampleDocument,
    "\n  query DatasetPage($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n      measurement\n      dataType\n      dataFormat\n      sessionName\n      timestamp\n      public\n      size\n      creationTime\n      modificationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      instrument {\n        uniqueId\n        instrumentName\n      }\n      keywords\n      thumbnails(first: 24) {\n        id\n        mimeType\n        url\n        thumbnailName\n      }\n      scientificMetadata\n      parents {\n        uniqueId\n        datasetName\n      }\n      children {\n        uniqueId\n        datasetName\n      }\n      samples {\n        uniqueId\n        sampleName\n      }\n      capabilities {\n        canUpdate\n        canAddFiles\n        canEditMetadata\n        canRequestDeletion\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n": typeof types.DatasetPageDocument,
    "\n  mutation UpdateDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.UpdateDatasetDocument,
    "\n  mutation AddDatasetKeyword($id: ID!, $keyword: String!) {\n    addDatasetKeyword(id: $id, keyword: $keyword) {\n      keyword\n    }\n  }\n": typeof types.AddDatasetKeywordDocument,
    "\n  mutation RequestDatasetDeletion($id: ID!, $reason: String) {\n    requestDeletion(id: $id, reason: $reason) {\n      id\n      status\n    }\n  }\n": typeof types.RequestDatasetDeletionDocument,
    "\n  query DatasetFiles($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      files(first: 100) {\n        totalCount\n        nodes {\n          uniqueId\n          filename\n          size\n          sha256\n          storageBackend\n          ingestionStatus\n          downloadUrl\n          latestIngestion {\n            id\n            status\n            errorMessage\n            bytesRead\n            bytesTotal\n          }\n        }\n      }\n    }\n  }\n": typeof types.DatasetFilesDocument,
    "\n  subscription DatasetIngestionEvents($dataset: ID!) {\n    ingestionProgress(dataset: $dataset) {\n      type\n      payload\n    }\n  }\n": typeof types.DatasetIngestionEventsDocument,
    "\n  mutation AddDatasetFiles($dataset: ID!, $file: Upload!) {\n    addDatasetFile(dataset: $dataset, file: $file) {\n      created\n      file {\n        uniqueId\n        ingestionStatus\n      }\n    }\n  }\n": typeof types.AddDatasetFilesDocument,
    "\n  mutation RerunIngestion($fileId: ID!) {\n    requestIngestion(fileId: $fileId) {\n      id\n      status\n    }\n  }\n": typeof types.RerunIngestionDocument,
    "\n  mutation DeleteDatasetFile($id: ID!) {\n    deleteFile(id: $id)\n  }\n": typeof types.DeleteDatasetFileDocument,
    "\n  mutation MergeDatasetMetadata($id: ID!, $metadata: JSONObject!) {\n    mergeScientificMetadata(id: $id, metadata: $metadata)\n  }\n": typeof types.MergeDatasetMetadataDocument,
    "\n  mutation LinkRecords($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n": typeof types.LinkRecordsDocument,
    "\n  mutation UnlinkRecords($a: ID!, $b: ID!) {\n    unlinkResources(a: $a, b: $b) {\n      kind\n    }\n  }\n": typeof types.UnlinkRecordsDocument,
    "\n  query DatasetAccess($id: ID!) {\n    resourceAccess(id: $id) {\n      grantsComplete\n      grants {\n        principalType\n        principalId\n        principalName\n        permission\n        grantedBy\n        granter {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n": typeof types.DatasetAccessDocument,
    "\n  mutation GrantAccess($id: ID!, $kind: GrantKind!, $principal: String!, $permission: PermissionLevel!) {\n    setAccess(id: $id, kind: $kind, principal: $principal, permission: $permission) {\n      permission\n    }\n  }\n": typeof types.GrantAccessDocument,
    "\n  mutation RevokeAccess($id: ID!, $kind: GrantKind!, $principal: String!) {\n    revokeAccess(id: $id, kind: $kind, principal: $principal)\n  }\n": typeof types.RevokeAccessDocument,
    "\n  fragment ChangePreviewFields on ChangePreviewType {\n    action\n    applied\n    token\n    currentOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    newOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    currentProject {\n      projectId\n    }\n    newProject {\n      projectId\n    }\n    gains {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    losses {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    grantsAffected {\n      principalType\n      principalId\n      permission\n      effect\n      reason\n    }\n  }\n": typeof types.ChangePreviewFieldsFragmentDoc,
    "\n  mutation TransferDataset($id: ID!, $newOwner: String!, $confirm: Boolean!, $token: String) {\n    transferOwnership(id: $id, newOwner: $newOwner, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n": typeof types.TransferDatasetDocument,
    "\n  mutation ReassignDataset($id: ID!, $projectId: String!, $confirm: Boolean!, $token: String) {\n    reassignProject(id: $id, projectId: $projectId, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n": typeof types.ReassignDatasetDocument,
    "\n  query PendingDeletionRequests {\n    deletionRequests(first: 100, status: \"pending\") {\n      nodes {\n        id\n        resourceId\n        resourceType\n        resourceName\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n        reason\n        requestTime\n      }\n    }\n  }\n": typeof types.PendingDeletionRequestsDocument,
    "\n  mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!, $notes: String) {\n    reviewDeletionRequest(id: $id, approve: $approve, reviewerNotes: $notes) {\n      id\n      status\n    }\n  }\n": typeof types.ReviewDeletionRequestDocument,
    "\n  query DatasetFacets($filter: DatasetFilterInput) {\n    datasetFacets(filter: $filter) {\n      total\n      capped\n      measurement {\n        value\n        label\n        count\n      }\n      dataType {\n        value\n        label\n        count\n      }\n      keyword {\n        value\n        label\n        count\n      }\n      owner {\n        value\n        label\n        count\n      }\n      instrument {\n        value\n        label\n        count\n      }\n      project {\n        value\n        label\n        count\n      }\n      public {\n        value\n        label\n        count\n      }\n    }\n  }\n": typeof types.DatasetFacetsDocument,
    "\n  query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {\n    datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {\n      totalCount\n      totalCountIsExact\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        ...DatasetRow\n      }\n    }\n  }\n": typeof types.DatasetListDocument,
    "\n  fragment DatasetRow on Dataset {\n    uniqueId\n    datasetName\n    measurement\n    dataType\n    creationTime\n    public\n    ownerOrcid\n    owner {\n      uniqueId\n      username\n    }\n    project {\n      projectId\n      title\n    }\n    instrument {\n      uniqueId\n      instrumentName\n    }\n    firstThumbnail {\n      id\n      mimeType\n      url\n      thumbnailName\n    }\n  }\n": typeof types.DatasetRowFragmentDoc,
    "\n  query InstrumentPage($id: String!) {\n    instrument(id: $id) {\n      uniqueId\n      instrumentId\n      instrumentName\n      instrumentType\n      description\n      location\n      manufacturer\n      model\n      status\n      otherId\n      otherIdSource\n      public\n      capabilities {\n        canUpdate\n        canManageAccess\n      }\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n    }\n  }\n": typeof types.InstrumentPageDocument,
    "\n  mutation UpdateInstrument($id: String!, $input: UpdateInstrumentInput!) {\n    updateInstrument(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.UpdateInstrumentDocument,
    "\n  mutation SetInstrumentStatus($id: String!, $status: InstrumentStatus!) {\n    setInstrumentStatus(id: $id, status: $status) {\n      uniqueId\n      status\n    }\n  }\n": typeof types.SetInstrumentStatusDocument,
    "\n  query PendingAccounts {\n    pendingUsers(first: 100) {\n      total\n      items {\n        uniqueId\n        username\n        firstName\n        lastName\n        email\n        pendingSince\n      }\n    }\n  }\n": typeof types.PendingAccountsDocument,
    "\n  mutation ActivateAccount($id: ID!) {\n    activateUser(id: $id) {\n      uniqueId\n      pendingSince\n    }\n  }\n": typeof types.ActivateAccountDocument,
    "\n  mutation DisableAccount($id: ID!) {\n    disableUser(id: $id) {\n      uniqueId\n      disabled\n    }\n  }\n": typeof types.DisableAccountDocument,
    "\n  query ProjectPage($id: String!) {\n    project(id: $id) {\n      uniqueId\n      projectId\n      title\n      description\n      organization\n      status\n      creationTime\n      lead {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n      capabilities {\n        canUpdate\n        canManageMembers\n      }\n      members {\n        role\n        user {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n      datasets(first: 1) {\n        totalCount\n      }\n      samples(first: 25) {\n        totalCount\n        nodes {\n          uniqueId\n          sampleName\n        }\n      }\n    }\n  }\n": typeof types.ProjectPageDocument,
    "\n  mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {\n    updateProject(id: $id, input: $input) {\n      projectId\n    }\n  }\n": typeof types.UpdateProjectDocument,
    "\n  mutation SetProjectMember($project: String!, $member: ProjectMemberInput!) {\n    setProjectMember(project: $project, member: $member) {\n      role\n    }\n  }\n": typeof types.SetProjectMemberDocument,
    "\n  mutation RemoveProjectMember($project: String!, $user: String!) {\n    removeProjectMember(project: $project, user: $user) {\n      role\n    }\n  }\n": typeof types.RemoveProjectMemberDocument,
    "\n  fragment PublicationDescription on Publication {\n    id\n    state\n    canChange\n    title\n    description\n    creators {\n      name\n      orcid\n      affiliations {\n        name\n        rorId\n      }\n    }\n    license\n    keywords\n    version\n    embargoUntil\n    datasets {\n      datasetId\n      name\n    }\n  }\n": typeof types.PublicationDescriptionFragmentDoc,
    "\n  query PublicationPage($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      citation\n      doi\n      registrationState\n      registrationError\n      publishedAt\n      withdrawnAt\n      withdrawalReason\n      datasets {\n        fileCount\n        size\n      }\n      manifest {\n        datasetId\n        name\n        files {\n          size\n        }\n      }\n      previousVersion {\n        id\n        title\n        version\n      }\n      nextVersion {\n        id\n        state\n        version\n      }\n    }\n  }\n": typeof types.PublicationPageDocument,
    "\n  mutation PublishPublication($id: ID!) {\n    publishPublication(id: $id) {\n      id\n    }\n  }\n": typeof types.PublishPublicationDocument,
    "\n  mutation NewPublicationVersion($id: ID!) {\n    newPublicationVersion(id: $id) {\n      id\n    }\n  }\n": typeof types.NewPublicationVersionDocument,
    "\n  mutation WithdrawPublication($id: ID!, $reason: String!) {\n    withdrawPublication(id: $id, reason: $reason) {\n      id\n    }\n  }\n": typeof types.WithdrawPublicationDocument,
    "\n  query PublicationList($title: String, $state: String, $first: Int) {\n    publications(title: $title, state: $state, first: $first) {\n      total\n      items {\n        id\n        title\n        state\n        version\n        doi\n        publishedAt\n        creationTime\n      }\n    }\n  }\n": typeof types.PublicationListDocument,
    "\n  query PublishMe {\n    me {\n      user {\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n": typeof types.PublishMeDocument,
    "\n  query PublishDatasetName($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n    }\n  }\n": typeof types.PublishDatasetNameDocument,
    "\n  query PublicationToEdit($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      funding {\n        funderName\n        funderIdentifier\n        awardNumber\n        awardTitle\n      }\n      relatedIdentifiers {\n        relatedIdentifier\n        relatedIdentifierType\n        relationType\n      }\n    }\n  }\n": typeof types.PublicationToEditDocument,
    "\n  mutation CreatePublication($datasetIds: [ID!]!, $input: PublicationMetadataInput!) {\n    createPublication(datasetIds: $datasetIds, input: $input) {\n      id\n    }\n  }\n": typeof types.CreatePublicationDocument,
    "\n  mutation UpdatePublication($id: ID!, $input: PublicationMetadataInput!) {\n    updatePublication(id: $id, input: $input) {\n      id\n    }\n  }\n": typeof types.UpdatePublicationDocument,
    "\n  mutation RemoveDatasetKeyword($id: ID!, $keyword: String!) {\n    removeDatasetKeyword(id: $id, keyword: $keyword)\n  }\n": typeof types.RemoveDatasetKeywordDocument,
    "\n  mutation WithdrawDeletionRequest($id: Int!, $note: String) {\n    withdrawDeletionRequest(id: $id, note: $note)\n  }\n": typeof types.WithdrawDeletionRequestDocument,
    "\n  query RecordHistory($id: ID!) {\n    resourceHistory(id: $id, first: 50) {\n      nodes {\n        uniqueId\n        type\n        time\n        actorId\n        payload\n      }\n    }\n  }\n": typeof types.RecordHistoryDocument,
    "\n  query MetadataVersions($id: ID!, $before: Int) {\n    metadataVersions(id: $id, first: 50, before: $before) {\n      items {\n        version\n        time\n        actorId\n        data\n      }\n      nextBefore\n    }\n  }\n": typeof types.MetadataVersionsDocument,
    "\n  mutation RestoreMetadataVersion($id: ID!, $version: Int!) {\n    restoreMetadataVersion(id: $id, version: $version) {\n      version\n    }\n  }\n": typeof types.RestoreMetadataVersionDocument,
    "\n  query SampleListPage($first: Int!, $filter: SampleFilterInput) {\n    samples(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...SampleListRow\n      }\n    }\n  }\n": typeof types.SampleListPageDocument,
    "\n  query SampleSearchPage($q: String!, $projectId: String) {\n    searchSamples(q: $q, projectId: $projectId, first: 50) {\n      ...SampleListRow\n    }\n  }\n": typeof types.SampleSearchPageDocument,
    "\n  fragment SampleListRow on Sample {\n    uniqueId\n    sampleName\n    sampleType\n    public\n    creationTime\n    project {\n      projectId\n      title\n    }\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": typeof types.SampleListRowFragmentDoc,
    "\n  query SampleFacetsPage($filter: SampleFilterInput) {\n    type: sampleFacets(field: sample_type, filter: $filter) {\n      value\n      label\n      count\n    }\n    project: sampleFacets(field: project, filter: $filter) {\n      value\n      label\n      count\n    }\n    owner: sampleFacets(field: owner, filter: $filter) {\n      value\n      label\n      count\n    }\n  }\n": typeof types.SampleFacetsPageDocument,
    "\n  query ProjectListPage($first: Int!, $filter: ProjectFilterInput, $mine: ProjectFilterInput!) {\n    projects(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...ProjectListRow\n      }\n    }\n    all: projects(first: 1) {\n      totalCount\n    }\n    mine: projects(first: 1, filter: $mine) {\n      totalCount\n    }\n  }\n": typeof types.ProjectListPageDocument,
    "\n  query ProjectSearchPage($q: String!) {\n    searchProjects(q: $q, first: 50) {\n      ...ProjectListRow\n    }\n  }\n": typeof types.ProjectSearchPageDocument,
    "\n  fragment ProjectListRow on Project {\n    uniqueId\n    projectId\n    title\n    organization\n    status\n    lead {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": typeof types.ProjectListRowFragmentDoc,
    "\n  query ListMe {\n    me {\n      user {\n        uniqueId\n      }\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n      }\n    }\n  }\n": typeof types.ListMeDocument,
    "\n  query InstrumentListPage($first: Int!, $status: [InstrumentStatus!]) {\n    instruments(first: $first, status: $status) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...InstrumentListRow\n      }\n    }\n    active: instruments(first: 1, status: [active]) {\n      totalCount\n    }\n    maintenance: instruments(first: 1, status: [maintenance]) {\n      totalCount\n    }\n    decommissioned: instruments(first: 1, status: [decommissioned]) {\n      totalCount\n    }\n  }\n": typeof types.InstrumentListPageDocument,
    "\n  query InstrumentSearchPage($q: String!) {\n    searchInstruments(q: $q, first: 50) {\n      ...InstrumentListRow\n    }\n  }\n": typeof types.InstrumentSearchPageDocument,
    "\n  fragment InstrumentListRow on Instrument {\n    uniqueId\n    instrumentName\n    instrumentType\n    manufacturer\n    location\n    status\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": typeof types.InstrumentListRowFragmentDoc,
    "\n  query SamplePage($id: ID!) {\n    sample(id: $id) {\n      uniqueId\n      sampleName\n      sampleType\n      description\n      timestamp\n      public\n      creationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      scientificMetadata\n      datasets {\n        uniqueId\n        datasetName\n      }\n      parents {\n        uniqueId\n        sampleName\n      }\n      children {\n        uniqueId\n        sampleName\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n      }\n      capabilities {\n        canUpdate\n        canEditMetadata\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n        canRequestDeletion\n      }\n    }\n  }\n": typeof types.SamplePageDocument,
    "\n  mutation UpdateSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": typeof types.UpdateSampleDocument,
    "\n  query FilterChoices {\n    me {\n      projects {\n        project {\n          uniqueId\n          projectId\n          title\n        }\n      }\n    }\n    instruments(first: 200) {\n      nodes {\n        uniqueId\n        instrumentName\n      }\n    }\n  }\n": typeof types.FilterChoicesDocument,
    "\n  fragment GraphParts on EntityGraph {\n    nodes {\n      id\n      type\n      name\n      depth\n      measurement\n      sampleType\n      firstThumbnail {\n        mimeType\n        url\n        thumbnailName\n      }\n    }\n    edges {\n      source\n      target\n      kind\n      relationshipType\n    }\n  }\n": typeof types.GraphPartsFragmentDoc,
    "\n  query EntityGraph($id: ID!, $depth: Int) {\n    entityGraph(id: $id, depth: $depth) {\n      ...GraphParts\n    }\n  }\n": typeof types.EntityGraphDocument,
    "\n  query ProjectGraph($project: String!) {\n    projectGraph(project: $project) {\n      ...GraphParts\n    }\n  }\n": typeof types.ProjectGraphDocument,
};
const documents: Documents = {
    "\n  fragment BatchFields on Batch {\n    id\n    status\n    operation\n    targetCount\n    changedCount\n    refusedCount\n    refused {\n      uniqueId\n      name\n      reason\n    }\n    sample {\n      uniqueId\n      name\n      before\n      after\n      changes\n    }\n    token\n    canApply\n    canUndo\n    createdAt\n  }\n": types.BatchFieldsFragmentDoc,
    "\n  mutation PreviewBatch($targets: BatchTargetsInput!, $operation: BatchOperationInput!) {\n    previewDatasetBatch(targets: $targets, operation: $operation) {\n      ...BatchFields\n    }\n  }\n": types.PreviewBatchDocument,
    "\n  mutation ApplyBatch($id: ID!, $token: String!) {\n    applyDatasetBatch(id: $id, token: $token) {\n      ...BatchFields\n    }\n  }\n": types.ApplyBatchDocument,
    "\n  mutation UndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      ...BatchFields\n    }\n  }\n": types.UndoBatchDocument,
    "\n  query RecentBatches {\n    datasetBatches(first: 10) {\n      ...BatchFields\n    }\n  }\n": types.RecentBatchesDocument,
    "\n  query FilePreview($file: ID!) {\n    filePreview(file: $file) {\n      fileId\n      filename\n      kind\n      size\n      text\n      bytesRead\n      truncated\n      imagePath\n      reason\n      structure {\n        nodes {\n          path\n          kind\n          shape\n          dtype\n          attributes\n        }\n        truncated\n        ingestor\n      }\n    }\n  }\n": types.FilePreviewDocument,
    "\n  mutation HistoryUndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      id\n      status\n    }\n  }\n": types.HistoryUndoBatchDocument,
    "\n  mutation HistoryRevertDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": types.HistoryRevertDatasetDocument,
    "\n  mutation HistoryRevertSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": types.HistoryRevertSampleDocument,
    "\n  query PickUsers($q: String!, $first: Int!) {\n    searchUsers(q: $q, first: $first) {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": types.PickUsersDocument,
    "\n  query PickProjects($q: String!, $first: Int!) {\n    searchProjects(q: $q, first: $first) {\n      uniqueId\n      projectId\n      title\n    }\n  }\n": types.PickProjectsDocument,
    "\n  query PickInstruments($q: String!, $first: Int!) {\n    searchInstruments(q: $q, first: $first) {\n      uniqueId\n      instrumentName\n      instrumentType\n    }\n  }\n": types.PickInstrumentsDocument,
    "\n  query PickSamples($q: String!, $first: Int!) {\n    searchSamples(q: $q, first: $first) {\n      uniqueId\n      sampleName\n      sampleType\n    }\n  }\n": types.PickSamplesDocument,
    "\n  query PickDatasets($q: String!, $first: Int!) {\n    searchDatasets(q: $q, first: $first) {\n      uniqueId\n      datasetName\n      measurement\n    }\n  }\n": types.PickDatasetsDocument,
    "\n  query Me {\n    me {\n      isPlatformAdmin\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n": types.MeDocument,
    "\n  query MyApiKeys {\n    myApiKeys {\n      uniqueId\n      prefix\n      label\n      status\n      createdAt\n      expiresAt\n      lastUsedAt\n    }\n  }\n": types.MyApiKeysDocument,
    "\n  mutation CreateApiKey($label: String!, $expiresAt: DateTimeISO) {\n    createApiKey(label: $label, expiresAt: $expiresAt) {\n      secret\n      apiKey {\n        uniqueId\n        prefix\n      }\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      uniqueId\n      status\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  query CreateCapabilities {\n    me {\n      canElevate\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n        canCreateSample\n        canCreateDataset\n        canCreateForOthers\n      }\n    }\n  }\n": types.CreateCapabilitiesDocument,
    "\n  mutation CreateProjectPage($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      projectId\n    }\n  }\n": types.CreateProjectPageDocument,
    "\n  mutation CreateInstrumentPage($input: CreateInstrumentInput!) {\n    createInstrument(input: $input) {\n      uniqueId\n    }\n  }\n": types.CreateInstrumentPageDocument,
    "\n  mutation CreateSamplePage($input: CreateSampleInput!) {\n    createSample(input: $input) {\n      uniqueId\n    }\n  }\n": types.CreateSamplePageDocument,
    "\n  mutation CreateDatasetPage($input: CreateDatasetInput!) {\n    createDataset(input: $input) {\n      uniqueId\n    }\n  }\n": types.CreateDatasetPageDocument,
    "\n  mutation LinkNewDatasetSample($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n": types.LinkNewDatasetSampleDocument,
    "\n  query DatasetPage($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n      measurement\n      dataType\n      dataFormat\n      sessionName\n      timestamp\n      public\n      size\n      creationTime\n      modificationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      instrument {\n        uniqueId\n        instrumentName\n      }\n      keywords\n      thumbnails(first: 24) {\n        id\n        mimeType\n        url\n        thumbnailName\n      }\n      scientificMetadata\n      parents {\n        uniqueId\n        datasetName\n      }\n      children {\n        uniqueId\n        datasetName\n      }\n      samples {\n        uniqueId\n        sampleName\n      }\n      capabilities {\n        canUpdate\n        canAddFiles\n        canEditMetadata\n        canRequestDeletion\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n": types.DatasetPageDocument,
    "\n  mutation UpdateDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": types.UpdateDatasetDocument,
    "\n  mutation AddDatasetKeyword($id: ID!, $keyword: String!) {\n    addDatasetKeyword(id: $id, keyword: $keyword) {\n      keyword\n    }\n  }\n": types.AddDatasetKeywordDocument,
    "\n  mutation RequestDatasetDeletion($id: ID!, $reason: String) {\n    requestDeletion(id: $id, reason: $reason) {\n      id\n      status\n    }\n  }\n": types.RequestDatasetDeletionDocument,
    "\n  query DatasetFiles($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      files(first: 100) {\n        totalCount\n        nodes {\n          uniqueId\n          filename\n          size\n          sha256\n          storageBackend\n          ingestionStatus\n          downloadUrl\n          latestIngestion {\n            id\n            status\n            errorMessage\n            bytesRead\n            bytesTotal\n          }\n        }\n      }\n    }\n  }\n": types.DatasetFilesDocument,
    "\n  subscription DatasetIngestionEvents($dataset: ID!) {\n    ingestionProgress(dataset: $dataset) {\n      type\n      payload\n    }\n  }\n": types.DatasetIngestionEventsDocument,
    "\n  mutation AddDatasetFiles($dataset: ID!, $file: Upload!) {\n    addDatasetFile(dataset: $dataset, file: $file) {\n      created\n      file {\n        uniqueId\n        ingestionStatus\n      }\n    }\n  }\n": types.AddDatasetFilesDocument,
    "\n  mutation RerunIngestion($fileId: ID!) {\n    requestIngestion(fileId: $fileId) {\n      id\n      status\n    }\n  }\n": types.RerunIngestionDocument,
    "\n  mutation DeleteDatasetFile($id: ID!) {\n    deleteFile(id: $id)\n  }\n": types.DeleteDatasetFileDocument,
    "\n  mutation MergeDatasetMetadata($id: ID!, $metadata: JSONObject!) {\n    mergeScientificMetadata(id: $id, metadata: $metadata)\n  }\n": types.MergeDatasetMetadataDocument,
    "\n  mutation LinkRecords($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n": types.LinkRecordsDocument,
    "\n  mutation UnlinkRecords($a: ID!, $b: ID!) {\n    unlinkResources(a: $a, b: $b) {\n      kind\n    }\n  }\n": types.UnlinkRecordsDocument,
    "\n  query DatasetAccess($id: ID!) {\n    resourceAccess(id: $id) {\n      grantsComplete\n      grants {\n        principalType\n        principalId\n        principalName\n        permission\n        grantedBy\n        granter {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n": types.DatasetAccessDocument,
    "\n  mutation GrantAccess($id: ID!, $kind: GrantKind!, $principal: String!, $permission: PermissionLevel!) {\n    setAccess(id: $id, kind: $kind, principal: $principal, permission: $permission) {\n      permission\n    }\n  }\n": types.GrantAccessDocument,
    "\n  mutation RevokeAccess($id: ID!, $kind: GrantKind!, $principal: String!) {\n    revokeAccess(id: $id, kind: $kind, principal: $principal)\n  }\n": types.RevokeAccessDocument,
    "\n  fragment ChangePreviewFields on ChangePreviewType {\n    action\n    applied\n    token\n    currentOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    newOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    currentProject {\n      projectId\n    }\n    newProject {\n      projectId\n    }\n    gains {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    losses {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    grantsAffected {\n      principalType\n      principalId\n      permission\n      effect\n      reason\n    }\n  }\n": types.ChangePreviewFieldsFragmentDoc,
    "\n  mutation TransferDataset($id: ID!, $newOwner: String!, $confirm: Boolean!, $token: String) {\n    transferOwnership(id: $id, newOwner: $newOwner, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n": types.TransferDatasetDocument,
    "\n  mutation ReassignDataset($id: ID!, $projectId: String!, $confirm: Boolean!, $token: String) {\n    reassignProject(id: $id, projectId: $projectId, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n": types.ReassignDatasetDocument,
    "\n  query PendingDeletionRequests {\n    deletionRequests(first: 100, status: \"pending\") {\n      nodes {\n        id\n        resourceId\n        resourceType\n        resourceName\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n        reason\n        requestTime\n      }\n    }\n  }\n": types.PendingDeletionRequestsDocument,
    "\n  mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!, $notes: String) {\n    reviewDeletionRequest(id: $id, approve: $approve, reviewerNotes: $notes) {\n      id\n      status\n    }\n  }\n": types.ReviewDeletionRequestDocument,
    "\n  query DatasetFacets($filter: DatasetFilterInput) {\n    datasetFacets(filter: $filter) {\n      total\n      capped\n      measurement {\n        value\n        label\n        count\n      }\n      dataType {\n        value\n        label\n        count\n      }\n      keyword {\n        value\n        label\n        count\n      }\n      owner {\n        value\n        label\n        count\n      }\n      instrument {\n        value\n        label\n        count\n      }\n      project {\n        value\n        label\n        count\n      }\n      public {\n        value\n        label\n        count\n      }\n    }\n  }\n": types.DatasetFacetsDocument,
    "\n  query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {\n    datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {\n      totalCount\n      totalCountIsExact\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        ...DatasetRow\n      }\n    }\n  }\n": types.DatasetListDocument,
    "\n  fragment DatasetRow on Dataset {\n    uniqueId\n    datasetName\n    measurement\n    dataType\n    creationTime\n    public\n    ownerOrcid\n    owner {\n      uniqueId\n      username\n    }\n    project {\n      projectId\n      title\n    }\n    instrument {\n      uniqueId\n      instrumentName\n    }\n    firstThumbnail {\n      id\n      mimeType\n      url\n      thumbnailName\n    }\n  }\n": types.DatasetRowFragmentDoc,
    "\n  query InstrumentPage($id: String!) {\n    instrument(id: $id) {\n      uniqueId\n      instrumentId\n      instrumentName\n      instrumentType\n      description\n      location\n      manufacturer\n      model\n      status\n      otherId\n      otherIdSource\n      public\n      capabilities {\n        canUpdate\n        canManageAccess\n      }\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n    }\n  }\n": types.InstrumentPageDocument,
    "\n  mutation UpdateInstrument($id: String!, $input: UpdateInstrumentInput!) {\n    updateInstrument(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": types.UpdateInstrumentDocument,
    "\n  mutation SetInstrumentStatus($id: String!, $status: InstrumentStatus!) {\n    setInstrumentStatus(id: $id, status: $status) {\n      uniqueId\n      status\n    }\n  }\n": types.SetInstrumentStatusDocument,
    "\n  query PendingAccounts {\n    pendingUsers(first: 100) {\n      total\n      items {\n        uniqueId\n        username\n        firstName\n        lastName\n        email\n        pendingSince\n      }\n    }\n  }\n": types.PendingAccountsDocument,
    "\n  mutation ActivateAccount($id: ID!) {\n    activateUser(id: $id) {\n      uniqueId\n      pendingSince\n    }\n  }\n": types.ActivateAccountDocument,
    "\n  mutation DisableAccount($id: ID!) {\n    disableUser(id: $id) {\n      uniqueId\n      disabled\n    }\n  }\n": types.DisableAccountDocument,
    "\n  query ProjectPage($id: String!) {\n    project(id: $id) {\n      uniqueId\n      projectId\n      title\n      description\n      organization\n      status\n      creationTime\n      lead {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n      capabilities {\n        canUpdate\n        canManageMembers\n      }\n      members {\n        role\n        user {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n      datasets(first: 1) {\n        totalCount\n      }\n      samples(first: 25) {\n        totalCount\n        nodes {\n          uniqueId\n          sampleName\n        }\n      }\n    }\n  }\n": types.ProjectPageDocument,
    "\n  mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {\n    updateProject(id: $id, input: $input) {\n      projectId\n    }\n  }\n": types.UpdateProjectDocument,
    "\n  mutation SetProjectMember($project: String!, $member: ProjectMemberInput!) {\n    setProjectMember(project: $project, member: $member) {\n      role\n    }\n  }\n": types.SetProjectMemberDocument,
    "\n  mutation RemoveProjectMember($project: String!, $user: String!) {\n    removeProjectMember(project: $project, user: $user) {\n      role\n    }\n  }\n": types.RemoveProjectMemberDocument,
    "\n  fragment PublicationDescription on Publication {\n    id\n    state\n    canChange\n    title\n    description\n    creators {\n      name\n      orcid\n      affiliations {\n        name\n        rorId\n      }\n    }\n    license\n    keywords\n    version\n    embargoUntil\n    datasets {\n      datasetId\n      name\n    }\n  }\n": types.PublicationDescriptionFragmentDoc,
    "\n  query PublicationPage($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      citation\n      doi\n      registrationState\n      registrationError\n      publishedAt\n      withdrawnAt\n      withdrawalReason\n      datasets {\n        fileCount\n        size\n      }\n      manifest {\n        datasetId\n        name\n        files {\n          size\n        }\n      }\n      previousVersion {\n        id\n        title\n        version\n      }\n      nextVersion {\n        id\n        state\n        version\n      }\n    }\n  }\n": types.PublicationPageDocument,
    "\n  mutation PublishPublication($id: ID!) {\n    publishPublication(id: $id) {\n      id\n    }\n  }\n": types.PublishPublicationDocument,
    "\n  mutation NewPublicationVersion($id: ID!) {\n    newPublicationVersion(id: $id) {\n      id\n    }\n  }\n": types.NewPublicationVersionDocument,
    "\n  mutation WithdrawPublication($id: ID!, $reason: String!) {\n    withdrawPublication(id: $id, reason: $reason) {\n      id\n    }\n  }\n": types.WithdrawPublicationDocument,
    "\n  query PublicationList($title: String, $state: String, $first: Int) {\n    publications(title: $title, state: $state, first: $first) {\n      total\n      items {\n        id\n        title\n        state\n        version\n        doi\n        publishedAt\n        creationTime\n      }\n    }\n  }\n": types.PublicationListDocument,
    "\n  query PublishMe {\n    me {\n      user {\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n": types.PublishMeDocument,
    "\n  query PublishDatasetName($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n    }\n  }\n": types.PublishDatasetNameDocument,
    "\n  query PublicationToEdit($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      funding {\n        funderName\n        funderIdentifier\n        awardNumber\n        awardTitle\n      }\n      relatedIdentifiers {\n        relatedIdentifier\n        relatedIdentifierType\n        relationType\n      }\n    }\n  }\n": types.PublicationToEditDocument,
    "\n  mutation CreatePublication($datasetIds: [ID!]!, $input: PublicationMetadataInput!) {\n    createPublication(datasetIds: $datasetIds, input: $input) {\n      id\n    }\n  }\n": types.CreatePublicationDocument,
    "\n  mutation UpdatePublication($id: ID!, $input: PublicationMetadataInput!) {\n    updatePublication(id: $id, input: $input) {\n      id\n    }\n  }\n": types.UpdatePublicationDocument,
    "\n  mutation RemoveDatasetKeyword($id: ID!, $keyword: String!) {\n    removeDatasetKeyword(id: $id, keyword: $keyword)\n  }\n": types.RemoveDatasetKeywordDocument,
    "\n  mutation WithdrawDeletionRequest($id: Int!, $note: String) {\n    withdrawDeletionRequest(id: $id, note: $note)\n  }\n": types.WithdrawDeletionRequestDocument,
    "\n  query RecordHistory($id: ID!) {\n    resourceHistory(id: $id, first: 50) {\n      nodes {\n        uniqueId\n        type\n        time\n        actorId\n        payload\n      }\n    }\n  }\n": types.RecordHistoryDocument,
    "\n  query MetadataVersions($id: ID!, $before: Int) {\n    metadataVersions(id: $id, first: 50, before: $before) {\n      items {\n        version\n        time\n        actorId\n        data\n      }\n      nextBefore\n    }\n  }\n": types.MetadataVersionsDocument,
    "\n  mutation RestoreMetadataVersion($id: ID!, $version: Int!) {\n    restoreMetadataVersion(id: $id, version: $version) {\n      version\n    }\n  }\n": types.RestoreMetadataVersionDocument,
    "\n  query SampleListPage($first: Int!, $filter: SampleFilterInput) {\n    samples(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...SampleListRow\n      }\n    }\n  }\n": types.SampleListPageDocument,
    "\n  query SampleSearchPage($q: String!, $projectId: String) {\n    searchSamples(q: $q, projectId: $projectId, first: 50) {\n      ...SampleListRow\n    }\n  }\n": types.SampleSearchPageDocument,
    "\n  fragment SampleListRow on Sample {\n    uniqueId\n    sampleName\n    sampleType\n    public\n    creationTime\n    project {\n      projectId\n      title\n    }\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": types.SampleListRowFragmentDoc,
    "\n  query SampleFacetsPage($filter: SampleFilterInput) {\n    type: sampleFacets(field: sample_type, filter: $filter) {\n      value\n      label\n      count\n    }\n    project: sampleFacets(field: project, filter: $filter) {\n      value\n      label\n      count\n    }\n    owner: sampleFacets(field: owner, filter: $filter) {\n      value\n      label\n      count\n    }\n  }\n": types.SampleFacetsPageDocument,
    "\n  query ProjectListPage($first: Int!, $filter: ProjectFilterInput, $mine: ProjectFilterInput!) {\n    projects(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...ProjectListRow\n      }\n    }\n    all: projects(first: 1) {\n      totalCount\n    }\n    mine: projects(first: 1, filter: $mine) {\n      totalCount\n    }\n  }\n": types.ProjectListPageDocument,
    "\n  query ProjectSearchPage($q: String!) {\n    searchProjects(q: $q, first: 50) {\n      ...ProjectListRow\n    }\n  }\n": types.ProjectSearchPageDocument,
    "\n  fragment ProjectListRow on Project {\n    uniqueId\n    projectId\n    title\n    organization\n    status\n    lead {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": types.ProjectListRowFragmentDoc,
    "\n  query ListMe {\n    me {\n      user {\n        uniqueId\n      }\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n      }\n    }\n  }\n": types.ListMeDocument,
    "\n  query InstrumentListPage($first: Int!, $status: [InstrumentStatus!]) {\n    instruments(first: $first, status: $status) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...InstrumentListRow\n      }\n    }\n    active: instruments(first: 1, status: [active]) {\n      totalCount\n    }\n    maintenance: instruments(first: 1, status: [maintenance]) {\n      totalCount\n    }\n    decommissioned: instruments(first: 1, status: [decommissioned]) {\n      totalCount\n    }\n  }\n": types.InstrumentListPageDocument,
    "\n  query InstrumentSearchPage($q: String!) {\n    searchInstruments(q: $q, first: 50) {\n      ...InstrumentListRow\n    }\n  }\n": types.InstrumentSearchPageDocument,
    "\n  fragment InstrumentListRow on Instrument {\n    uniqueId\n    instrumentName\n    instrumentType\n    manufacturer\n    location\n    status\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n": types.InstrumentListRowFragmentDoc,
    "\n  query SamplePage($id: ID!) {\n    sample(id: $id) {\n      uniqueId\n      sampleName\n      sampleType\n      description\n      timestamp\n      public\n      creationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      scientificMetadata\n      datasets {\n        uniqueId\n        datasetName\n      }\n      parents {\n        uniqueId\n        sampleName\n      }\n      children {\n        uniqueId\n        sampleName\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n      }\n      capabilities {\n        canUpdate\n        canEditMetadata\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n        canRequestDeletion\n      }\n    }\n  }\n": types.SamplePageDocument,
    "\n  mutation UpdateSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n": types.UpdateSampleDocument,
    "\n  query FilterChoices {\n    me {\n      projects {\n        project {\n          uniqueId\n          projectId\n          title\n        }\n      }\n    }\n    instruments(first: 200) {\n      nodes {\n        uniqueId\n        instrumentName\n      }\n    }\n  }\n": types.FilterChoicesDocument,
    "\n  fragment GraphParts on EntityGraph {\n    nodes {\n      id\n      type\n      name\n      depth\n      measurement\n      sampleType\n      firstThumbnail {\n        mimeType\n        url\n        thumbnailName\n      }\n    }\n    edges {\n      source\n      target\n      kind\n      relationshipType\n    }\n  }\n": types.GraphPartsFragmentDoc,
    "\n  query EntityGraph($id: ID!, $depth: Int) {\n    entityGraph(id: $id, depth: $depth) {\n      ...GraphParts\n    }\n  }\n": types.EntityGraphDocument,
    "\n  query ProjectGraph($project: String!) {\n    projectGraph(project: $project) {\n      ...GraphParts\n    }\n  }\n": types.ProjectGraphDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BatchFields on Batch {\n    id\n    status\n    operation\n    targetCount\n    changedCount\n    refusedCount\n    refused {\n      uniqueId\n      name\n      reason\n    }\n    sample {\n      uniqueId\n      name\n      before\n      after\n      changes\n    }\n    token\n    canApply\n    canUndo\n    createdAt\n  }\n"): typeof import('./graphql').BatchFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PreviewBatch($targets: BatchTargetsInput!, $operation: BatchOperationInput!) {\n    previewDatasetBatch(targets: $targets, operation: $operation) {\n      ...BatchFields\n    }\n  }\n"): typeof import('./graphql').PreviewBatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ApplyBatch($id: ID!, $token: String!) {\n    applyDatasetBatch(id: $id, token: $token) {\n      ...BatchFields\n    }\n  }\n"): typeof import('./graphql').ApplyBatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      ...BatchFields\n    }\n  }\n"): typeof import('./graphql').UndoBatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecentBatches {\n    datasetBatches(first: 10) {\n      ...BatchFields\n    }\n  }\n"): typeof import('./graphql').RecentBatchesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FilePreview($file: ID!) {\n    filePreview(file: $file) {\n      fileId\n      filename\n      kind\n      size\n      text\n      bytesRead\n      truncated\n      imagePath\n      reason\n      structure {\n        nodes {\n          path\n          kind\n          shape\n          dtype\n          attributes\n        }\n        truncated\n        ingestor\n      }\n    }\n  }\n"): typeof import('./graphql').FilePreviewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HistoryUndoBatch($id: ID!) {\n    undoDatasetBatch(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').HistoryUndoBatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HistoryRevertDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').HistoryRevertDatasetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation HistoryRevertSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').HistoryRevertSampleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PickUsers($q: String!, $first: Int!) {\n    searchUsers(q: $q, first: $first) {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').PickUsersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PickProjects($q: String!, $first: Int!) {\n    searchProjects(q: $q, first: $first) {\n      uniqueId\n      projectId\n      title\n    }\n  }\n"): typeof import('./graphql').PickProjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PickInstruments($q: String!, $first: Int!) {\n    searchInstruments(q: $q, first: $first) {\n      uniqueId\n      instrumentName\n      instrumentType\n    }\n  }\n"): typeof import('./graphql').PickInstrumentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PickSamples($q: String!, $first: Int!) {\n    searchSamples(q: $q, first: $first) {\n      uniqueId\n      sampleName\n      sampleType\n    }\n  }\n"): typeof import('./graphql').PickSamplesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PickDatasets($q: String!, $first: Int!) {\n    searchDatasets(q: $q, first: $first) {\n      uniqueId\n      datasetName\n      measurement\n    }\n  }\n"): typeof import('./graphql').PickDatasetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      isPlatformAdmin\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n"): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyApiKeys {\n    myApiKeys {\n      uniqueId\n      prefix\n      label\n      status\n      createdAt\n      expiresAt\n      lastUsedAt\n    }\n  }\n"): typeof import('./graphql').MyApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($label: String!, $expiresAt: DateTimeISO) {\n    createApiKey(label: $label, expiresAt: $expiresAt) {\n      secret\n      apiKey {\n        uniqueId\n        prefix\n      }\n    }\n  }\n"): typeof import('./graphql').CreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      uniqueId\n      status\n    }\n  }\n"): typeof import('./graphql').RevokeApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CreateCapabilities {\n    me {\n      canElevate\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n        canCreateSample\n        canCreateDataset\n        canCreateForOthers\n      }\n    }\n  }\n"): typeof import('./graphql').CreateCapabilitiesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProjectPage($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      projectId\n    }\n  }\n"): typeof import('./graphql').CreateProjectPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateInstrumentPage($input: CreateInstrumentInput!) {\n    createInstrument(input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').CreateInstrumentPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateSamplePage($input: CreateSampleInput!) {\n    createSample(input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').CreateSamplePageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateDatasetPage($input: CreateDatasetInput!) {\n    createDataset(input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').CreateDatasetPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LinkNewDatasetSample($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n"): typeof import('./graphql').LinkNewDatasetSampleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetPage($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n      measurement\n      dataType\n      dataFormat\n      sessionName\n      timestamp\n      public\n      size\n      creationTime\n      modificationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      instrument {\n        uniqueId\n        instrumentName\n      }\n      keywords\n      thumbnails(first: 24) {\n        id\n        mimeType\n        url\n        thumbnailName\n      }\n      scientificMetadata\n      parents {\n        uniqueId\n        datasetName\n      }\n      children {\n        uniqueId\n        datasetName\n      }\n      samples {\n        uniqueId\n        sampleName\n      }\n      capabilities {\n        canUpdate\n        canAddFiles\n        canEditMetadata\n        canRequestDeletion\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DatasetPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateDataset($id: ID!, $input: UpdateDatasetInput!) {\n    updateDataset(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').UpdateDatasetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddDatasetKeyword($id: ID!, $keyword: String!) {\n    addDatasetKeyword(id: $id, keyword: $keyword) {\n      keyword\n    }\n  }\n"): typeof import('./graphql').AddDatasetKeywordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestDatasetDeletion($id: ID!, $reason: String) {\n    requestDeletion(id: $id, reason: $reason) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').RequestDatasetDeletionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetFiles($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      files(first: 100) {\n        totalCount\n        nodes {\n          uniqueId\n          filename\n          size\n          sha256\n          storageBackend\n          ingestionStatus\n          downloadUrl\n          latestIngestion {\n            id\n            status\n            errorMessage\n            bytesRead\n            bytesTotal\n          }\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DatasetFilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DatasetIngestionEvents($dataset: ID!) {\n    ingestionProgress(dataset: $dataset) {\n      type\n      payload\n    }\n  }\n"): typeof import('./graphql').DatasetIngestionEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddDatasetFiles($dataset: ID!, $file: Upload!) {\n    addDatasetFile(dataset: $dataset, file: $file) {\n      created\n      file {\n        uniqueId\n        ingestionStatus\n      }\n    }\n  }\n"): typeof import('./graphql').AddDatasetFilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RerunIngestion($fileId: ID!) {\n    requestIngestion(fileId: $fileId) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').RerunIngestionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteDatasetFile($id: ID!) {\n    deleteFile(id: $id)\n  }\n"): typeof import('./graphql').DeleteDatasetFileDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MergeDatasetMetadata($id: ID!, $metadata: JSONObject!) {\n    mergeScientificMetadata(id: $id, metadata: $metadata)\n  }\n"): typeof import('./graphql').MergeDatasetMetadataDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LinkRecords($input: LinkResourcesInput!) {\n    linkResources(input: $input) {\n      kind\n    }\n  }\n"): typeof import('./graphql').LinkRecordsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UnlinkRecords($a: ID!, $b: ID!) {\n    unlinkResources(a: $a, b: $b) {\n      kind\n    }\n  }\n"): typeof import('./graphql').UnlinkRecordsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetAccess($id: ID!) {\n    resourceAccess(id: $id) {\n      grantsComplete\n      grants {\n        principalType\n        principalId\n        principalName\n        permission\n        grantedBy\n        granter {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DatasetAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation GrantAccess($id: ID!, $kind: GrantKind!, $principal: String!, $permission: PermissionLevel!) {\n    setAccess(id: $id, kind: $kind, principal: $principal, permission: $permission) {\n      permission\n    }\n  }\n"): typeof import('./graphql').GrantAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeAccess($id: ID!, $kind: GrantKind!, $principal: String!) {\n    revokeAccess(id: $id, kind: $kind, principal: $principal)\n  }\n"): typeof import('./graphql').RevokeAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChangePreviewFields on ChangePreviewType {\n    action\n    applied\n    token\n    currentOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    newOwner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n    currentProject {\n      projectId\n    }\n    newProject {\n      projectId\n    }\n    gains {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    losses {\n      before\n      after\n      user {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n    }\n    grantsAffected {\n      principalType\n      principalId\n      permission\n      effect\n      reason\n    }\n  }\n"): typeof import('./graphql').ChangePreviewFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferDataset($id: ID!, $newOwner: String!, $confirm: Boolean!, $token: String) {\n    transferOwnership(id: $id, newOwner: $newOwner, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n"): typeof import('./graphql').TransferDatasetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReassignDataset($id: ID!, $projectId: String!, $confirm: Boolean!, $token: String) {\n    reassignProject(id: $id, projectId: $projectId, confirm: $confirm, token: $token) {\n      ...ChangePreviewFields\n    }\n  }\n"): typeof import('./graphql').ReassignDatasetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingDeletionRequests {\n    deletionRequests(first: 100, status: \"pending\") {\n      nodes {\n        id\n        resourceId\n        resourceType\n        resourceName\n        requesterId\n        requester {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n        reason\n        requestTime\n      }\n    }\n  }\n"): typeof import('./graphql').PendingDeletionRequestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!, $notes: String) {\n    reviewDeletionRequest(id: $id, approve: $approve, reviewerNotes: $notes) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').ReviewDeletionRequestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetFacets($filter: DatasetFilterInput) {\n    datasetFacets(filter: $filter) {\n      total\n      capped\n      measurement {\n        value\n        label\n        count\n      }\n      dataType {\n        value\n        label\n        count\n      }\n      keyword {\n        value\n        label\n        count\n      }\n      owner {\n        value\n        label\n        count\n      }\n      instrument {\n        value\n        label\n        count\n      }\n      project {\n        value\n        label\n        count\n      }\n      public {\n        value\n        label\n        count\n      }\n    }\n  }\n"): typeof import('./graphql').DatasetFacetsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {\n    datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {\n      totalCount\n      totalCountIsExact\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        ...DatasetRow\n      }\n    }\n  }\n"): typeof import('./graphql').DatasetListDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DatasetRow on Dataset {\n    uniqueId\n    datasetName\n    measurement\n    dataType\n    creationTime\n    public\n    ownerOrcid\n    owner {\n      uniqueId\n      username\n    }\n    project {\n      projectId\n      title\n    }\n    instrument {\n      uniqueId\n      instrumentName\n    }\n    firstThumbnail {\n      id\n      mimeType\n      url\n      thumbnailName\n    }\n  }\n"): typeof import('./graphql').DatasetRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstrumentPage($id: String!) {\n    instrument(id: $id) {\n      uniqueId\n      instrumentId\n      instrumentName\n      instrumentType\n      description\n      location\n      manufacturer\n      model\n      status\n      otherId\n      otherIdSource\n      public\n      capabilities {\n        canUpdate\n        canManageAccess\n      }\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n    }\n  }\n"): typeof import('./graphql').InstrumentPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateInstrument($id: String!, $input: UpdateInstrumentInput!) {\n    updateInstrument(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').UpdateInstrumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetInstrumentStatus($id: String!, $status: InstrumentStatus!) {\n    setInstrumentStatus(id: $id, status: $status) {\n      uniqueId\n      status\n    }\n  }\n"): typeof import('./graphql').SetInstrumentStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PendingAccounts {\n    pendingUsers(first: 100) {\n      total\n      items {\n        uniqueId\n        username\n        firstName\n        lastName\n        email\n        pendingSince\n      }\n    }\n  }\n"): typeof import('./graphql').PendingAccountsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ActivateAccount($id: ID!) {\n    activateUser(id: $id) {\n      uniqueId\n      pendingSince\n    }\n  }\n"): typeof import('./graphql').ActivateAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisableAccount($id: ID!) {\n    disableUser(id: $id) {\n      uniqueId\n      disabled\n    }\n  }\n"): typeof import('./graphql').DisableAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectPage($id: String!) {\n    project(id: $id) {\n      uniqueId\n      projectId\n      title\n      description\n      organization\n      status\n      creationTime\n      lead {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      scientificMetadata\n      capabilities {\n        canUpdate\n        canManageMembers\n      }\n      members {\n        role\n        user {\n          uniqueId\n          username\n          firstName\n          lastName\n        }\n      }\n      datasets(first: 1) {\n        totalCount\n      }\n      samples(first: 25) {\n        totalCount\n        nodes {\n          uniqueId\n          sampleName\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').ProjectPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {\n    updateProject(id: $id, input: $input) {\n      projectId\n    }\n  }\n"): typeof import('./graphql').UpdateProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetProjectMember($project: String!, $member: ProjectMemberInput!) {\n    setProjectMember(project: $project, member: $member) {\n      role\n    }\n  }\n"): typeof import('./graphql').SetProjectMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveProjectMember($project: String!, $user: String!) {\n    removeProjectMember(project: $project, user: $user) {\n      role\n    }\n  }\n"): typeof import('./graphql').RemoveProjectMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PublicationDescription on Publication {\n    id\n    state\n    canChange\n    title\n    description\n    creators {\n      name\n      orcid\n      affiliations {\n        name\n        rorId\n      }\n    }\n    license\n    keywords\n    version\n    embargoUntil\n    datasets {\n      datasetId\n      name\n    }\n  }\n"): typeof import('./graphql').PublicationDescriptionFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublicationPage($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      citation\n      doi\n      registrationState\n      registrationError\n      publishedAt\n      withdrawnAt\n      withdrawalReason\n      datasets {\n        fileCount\n        size\n      }\n      manifest {\n        datasetId\n        name\n        files {\n          size\n        }\n      }\n      previousVersion {\n        id\n        title\n        version\n      }\n      nextVersion {\n        id\n        state\n        version\n      }\n    }\n  }\n"): typeof import('./graphql').PublicationPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PublishPublication($id: ID!) {\n    publishPublication(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').PublishPublicationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation NewPublicationVersion($id: ID!) {\n    newPublicationVersion(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').NewPublicationVersionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WithdrawPublication($id: ID!, $reason: String!) {\n    withdrawPublication(id: $id, reason: $reason) {\n      id\n    }\n  }\n"): typeof import('./graphql').WithdrawPublicationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublicationList($title: String, $state: String, $first: Int) {\n    publications(title: $title, state: $state, first: $first) {\n      total\n      items {\n        id\n        title\n        state\n        version\n        doi\n        publishedAt\n        creationTime\n      }\n    }\n  }\n"): typeof import('./graphql').PublicationListDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublishMe {\n    me {\n      user {\n        username\n        firstName\n        lastName\n      }\n    }\n  }\n"): typeof import('./graphql').PublishMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublishDatasetName($id: ID!) {\n    dataset(id: $id) {\n      uniqueId\n      datasetName\n    }\n  }\n"): typeof import('./graphql').PublishDatasetNameDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PublicationToEdit($id: ID!) {\n    publication(id: $id) {\n      ...PublicationDescription\n      funding {\n        funderName\n        funderIdentifier\n        awardNumber\n        awardTitle\n      }\n      relatedIdentifiers {\n        relatedIdentifier\n        relatedIdentifierType\n        relationType\n      }\n    }\n  }\n"): typeof import('./graphql').PublicationToEditDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePublication($datasetIds: [ID!]!, $input: PublicationMetadataInput!) {\n    createPublication(datasetIds: $datasetIds, input: $input) {\n      id\n    }\n  }\n"): typeof import('./graphql').CreatePublicationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePublication($id: ID!, $input: PublicationMetadataInput!) {\n    updatePublication(id: $id, input: $input) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdatePublicationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveDatasetKeyword($id: ID!, $keyword: String!) {\n    removeDatasetKeyword(id: $id, keyword: $keyword)\n  }\n"): typeof import('./graphql').RemoveDatasetKeywordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WithdrawDeletionRequest($id: Int!, $note: String) {\n    withdrawDeletionRequest(id: $id, note: $note)\n  }\n"): typeof import('./graphql').WithdrawDeletionRequestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecordHistory($id: ID!) {\n    resourceHistory(id: $id, first: 50) {\n      nodes {\n        uniqueId\n        type\n        time\n        actorId\n        payload\n      }\n    }\n  }\n"): typeof import('./graphql').RecordHistoryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MetadataVersions($id: ID!, $before: Int) {\n    metadataVersions(id: $id, first: 50, before: $before) {\n      items {\n        version\n        time\n        actorId\n        data\n      }\n      nextBefore\n    }\n  }\n"): typeof import('./graphql').MetadataVersionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RestoreMetadataVersion($id: ID!, $version: Int!) {\n    restoreMetadataVersion(id: $id, version: $version) {\n      version\n    }\n  }\n"): typeof import('./graphql').RestoreMetadataVersionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SampleListPage($first: Int!, $filter: SampleFilterInput) {\n    samples(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...SampleListRow\n      }\n    }\n  }\n"): typeof import('./graphql').SampleListPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SampleSearchPage($q: String!, $projectId: String) {\n    searchSamples(q: $q, projectId: $projectId, first: 50) {\n      ...SampleListRow\n    }\n  }\n"): typeof import('./graphql').SampleSearchPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SampleListRow on Sample {\n    uniqueId\n    sampleName\n    sampleType\n    public\n    creationTime\n    project {\n      projectId\n      title\n    }\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').SampleListRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SampleFacetsPage($filter: SampleFilterInput) {\n    type: sampleFacets(field: sample_type, filter: $filter) {\n      value\n      label\n      count\n    }\n    project: sampleFacets(field: project, filter: $filter) {\n      value\n      label\n      count\n    }\n    owner: sampleFacets(field: owner, filter: $filter) {\n      value\n      label\n      count\n    }\n  }\n"): typeof import('./graphql').SampleFacetsPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectListPage($first: Int!, $filter: ProjectFilterInput, $mine: ProjectFilterInput!) {\n    projects(first: $first, filter: $filter) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...ProjectListRow\n      }\n    }\n    all: projects(first: 1) {\n      totalCount\n    }\n    mine: projects(first: 1, filter: $mine) {\n      totalCount\n    }\n  }\n"): typeof import('./graphql').ProjectListPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectSearchPage($q: String!) {\n    searchProjects(q: $q, first: 50) {\n      ...ProjectListRow\n    }\n  }\n"): typeof import('./graphql').ProjectSearchPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ProjectListRow on Project {\n    uniqueId\n    projectId\n    title\n    organization\n    status\n    lead {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').ProjectListRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ListMe {\n    me {\n      user {\n        uniqueId\n      }\n      capabilities {\n        canCreateProject\n        canRegisterInstrument\n      }\n    }\n  }\n"): typeof import('./graphql').ListMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstrumentListPage($first: Int!, $status: [InstrumentStatus!]) {\n    instruments(first: $first, status: $status) {\n      totalCount\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        ...InstrumentListRow\n      }\n    }\n    active: instruments(first: 1, status: [active]) {\n      totalCount\n    }\n    maintenance: instruments(first: 1, status: [maintenance]) {\n      totalCount\n    }\n    decommissioned: instruments(first: 1, status: [decommissioned]) {\n      totalCount\n    }\n  }\n"): typeof import('./graphql').InstrumentListPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query InstrumentSearchPage($q: String!) {\n    searchInstruments(q: $q, first: 50) {\n      ...InstrumentListRow\n    }\n  }\n"): typeof import('./graphql').InstrumentSearchPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment InstrumentListRow on Instrument {\n    uniqueId\n    instrumentName\n    instrumentType\n    manufacturer\n    location\n    status\n    owner {\n      uniqueId\n      username\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').InstrumentListRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SamplePage($id: ID!) {\n    sample(id: $id) {\n      uniqueId\n      sampleName\n      sampleType\n      description\n      timestamp\n      public\n      creationTime\n      ownerOrcid\n      owner {\n        uniqueId\n        username\n        firstName\n        lastName\n      }\n      project {\n        projectId\n        title\n      }\n      scientificMetadata\n      datasets {\n        uniqueId\n        datasetName\n      }\n      parents {\n        uniqueId\n        sampleName\n      }\n      children {\n        uniqueId\n        sampleName\n      }\n      deletionRequest {\n        id\n        status\n        reason\n        requestTime\n        requesterId\n      }\n      capabilities {\n        canUpdate\n        canEditMetadata\n        canManageAccess\n        canTransferOwnership\n        canReassignProject\n        canRequestDeletion\n      }\n    }\n  }\n"): typeof import('./graphql').SamplePageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateSample($id: ID!, $input: UpdateSampleInput!) {\n    updateSample(id: $id, input: $input) {\n      uniqueId\n    }\n  }\n"): typeof import('./graphql').UpdateSampleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FilterChoices {\n    me {\n      projects {\n        project {\n          uniqueId\n          projectId\n          title\n        }\n      }\n    }\n    instruments(first: 200) {\n      nodes {\n        uniqueId\n        instrumentName\n      }\n    }\n  }\n"): typeof import('./graphql').FilterChoicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment GraphParts on EntityGraph {\n    nodes {\n      id\n      type\n      name\n      depth\n      measurement\n      sampleType\n      firstThumbnail {\n        mimeType\n        url\n        thumbnailName\n      }\n    }\n    edges {\n      source\n      target\n      kind\n      relationshipType\n    }\n  }\n"): typeof import('./graphql').GraphPartsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EntityGraph($id: ID!, $depth: Int) {\n    entityGraph(id: $id, depth: $depth) {\n      ...GraphParts\n    }\n  }\n"): typeof import('./graphql').EntityGraphDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectGraph($project: String!) {\n    projectGraph(project: $project) {\n      ...GraphParts\n    }\n  }\n"): typeof import('./graphql').ProjectGraphDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
